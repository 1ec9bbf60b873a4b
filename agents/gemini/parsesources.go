package gemini

import (
	"time"

	"github.com/rgit-dev/rgit/agents"
)

// webFetch is a web_fetch call waiting for its result: the URLs its
// prompt names (the Gemini CLI's web_fetch takes a prompt with up to 20
// URLs in it, or a url in some versions).
type webFetch struct{ urls []string }

// noteFetch remembers a web_fetch call until its tool_result comes.
func (p *parser) noteFetch(e event) {
	if e.ToolName != "web_fetch" {
		return
	}
	urls := agents.URLPattern.FindAllString(e.Params.Prompt, -1)
	if e.Params.URL != "" {
		urls = append(urls, e.Params.URL)
	}
	if len(urls) == 0 {
		return
	}
	if p.fetches == nil {
		p.fetches = map[string]webFetch{}
	}
	p.fetches[e.ToolID] = webFetch{urls: urls}
}

// fetched turns a successful web_fetch result into one Source per URL, each
// with the whole output: the CLI reports one text for all of them.
func (p *parser) fetched(e event) {
	f, ok := p.fetches[e.ToolID]
	if !ok {
		return
	}
	delete(p.fetches, e.ToolID)
	if e.Status != "success" {
		return
	}
	at, _ := time.Parse(time.RFC3339Nano, e.Timestamp)
	for _, u := range f.urls {
		p.sources = append(p.sources, agents.NewSource(u, "", "web_fetch", e.Output, at))
	}
}
