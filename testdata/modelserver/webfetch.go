package modelserver

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
)

// The web page of WebFetch runs: the server serves it at PagePath, a
// research call fetches it with the client's own web tool and cites it,
// and also cites UnfetchedPath, which nobody fetches, so that rgit's
// citation gate has something to catch.
const (
	PagePath      = "/pages/tides"
	UnfetchedPath = "/pages/never-fetched"
	// PageText is the page's sentence; a record of the fetch must hold it.
	PageText = "RGIT-PAGE: the Moon's gravity raises two tidal bulges on opposite sides of the Earth."
)

// webFetchTools are the clients' web fetch tools and urlProps their URL
// parameter's names.
var (
	webFetchTools = []string{"WebFetch", "web_fetch", "webfetch", "fetch_url"}
	urlProps      = []string{"url", "URL"}
)

// page serves the WebFetch page.
func page(w http.ResponseWriter) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	fmt.Fprintf(w, "<!doctype html><html><head><title>Tides</title></head><body><h1>Tides</h1><p>%s</p></body></html>\n", PageText)
}

// fetchSteps are the research call's calls that fetch the page, when the
// script names a page base: the client's web fetch tool, after a
// ToolSearch that loads it where the client defers it (Claude Code offers
// WebFetch only after "select:WebFetch").
func (s *Script) fetchSteps(t turn) []Call {
	if s.PageBase == "" {
		return nil
	}
	var steps []Call
	search, canSearch := t.find([]string{"ToolSearch"})
	wf, ok := t.find(webFetchTools)
	if canSearch && (!ok || slices.Contains(t.calls, search.name)) {
		steps = append(steps, Call{Tool: search.name, Args: map[string]any{"query": "select:WebFetch", "max_results": 1}})
	}
	if !ok {
		return steps
	}
	args := map[string]any{wf.prop(urlProps, "url"): s.PageBase + PagePath}
	if slices.Contains(wf.props, "prompt") { // Claude Code's WebFetch asks what to extract
		args["prompt"] = "Return the page's text verbatim."
	}
	return append(steps, Call{Tool: wf.name, Args: args})
}

// pageSummary answers the request a client makes to read a fetched page
// with a model (Claude Code's WebFetch does): the page's sentence, as a
// model asked to return it verbatim would.
func pageSummary(t turn) (string, bool) {
	if len(t.tools) > 0 || !strings.Contains(t.userText(), "RGIT-PAGE:") {
		return "", false
	}
	return PageText, true
}

// fetchedSources is the research output's findings and sources in WebFetch
// runs: a quotation of the page fetched, and a page never fetched.
func (s *Script) fetchedSources(topic string) (findings, sources string) {
	findings = fmt.Sprintf("- On %s, the fetched page says \"the Moon's gravity raises two tidal bulges\". (Source 1)\n", topic) +
		"- A page the agent never fetched agrees. (Source 2)\n"
	sources = fmt.Sprintf("- Source 1: Tides, rgit test page, 2026 - %s%s\n- Source 2: A page never fetched, rgit test fixture, 2026 - %s%s\n",
		s.PageBase, PagePath, s.PageBase, UnfetchedPath)
	return findings, sources
}
