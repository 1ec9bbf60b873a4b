package openai

import (
	"context"
	"encoding/json"
	"fmt"
	"html"
	"io"
	"mime"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/rgit-dev/rgit/agents"
)

// maxToolText caps how much page text goes back to the model; the saved
// source file keeps everything that was fetched.
const maxToolText = 24 << 10

type fetchLimits struct {
	maxBytes int64
	timeout  time.Duration
}

// fetchURL downloads an http(s) page, saves its text under sources/ with a
// name derived from the URL alone (so a citation keeps pointing at the same
// file across retries) and returns the text.
func (ws *workspace) fetchURL(ctx context.Context, raw string) (string, error) {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return "", fmt.Errorf("fetch %q: only absolute http and https URLs are allowed", raw)
	}
	body, ctype, truncated, err := ws.get(ctx, u.String(), "text/html, text/plain, application/json;q=0.9, */*;q=0.5")
	if err != nil {
		return "", err
	}
	mt, _, _ := mime.ParseMediaType(ctype)
	var title, text string
	switch {
	case mt == "text/html" || mt == "application/xhtml+xml" || (mt == "" && strings.Contains(body[:min(len(body), 512)], "<html")):
		title, text = htmlText(body)
	case strings.HasPrefix(mt, "text/") || mt == "application/json" || strings.HasSuffix(mt, "+json") || strings.HasSuffix(mt, "xml") || mt == "":
		text = body
	default:
		return "", fmt.Errorf("fetch %s: unsupported content type %s", u, mt)
	}
	if truncated {
		text += "\n[truncated]"
	}
	name := agents.SourceFileName(u.String()) // the name rgit gives the record of this page too
	path := filepath.Join(ws.dir, "sources", name)
	saved := fmt.Sprintf("Source: %s\nTitle: %s\n\n%s\n", u, title, text)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return "", fmt.Errorf("create sources: %w", err)
	}
	if err := os.WriteFile(path, []byte(saved), 0o644); err != nil {
		return "", fmt.Errorf("save source: %w", err)
	}
	ws.noteWrite(path)
	ws.sources = append(ws.sources, agents.NewSource(u.String(), title, "fetch_url", text, time.Now().UTC()))
	return fmt.Sprintf("Saved as sources/%s (cite it with the URL %s)\nTitle: %s\n\n%s", name, u, title, truncate(text, maxToolText)), nil
}

// get performs a GET bounded by the fetch time and size caps.
func (ws *workspace) get(ctx context.Context, u, accept string) (body, ctype string, truncated bool, err error) {
	ctx, cancel := context.WithTimeout(ctx, ws.fetch.timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return "", "", false, fmt.Errorf("fetch %s: %w", u, err)
	}
	req.Header.Set("User-Agent", "rgit-research/1 (+https://github.com/rgit-dev/rgit)")
	req.Header.Set("Accept", accept)
	resp, err := ws.client.Do(req)
	if err != nil {
		return "", "", false, fmt.Errorf("fetch %s: %w", u, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode/100 != 2 {
		return "", "", false, fmt.Errorf("fetch %s: HTTP %d", u, resp.StatusCode)
	}
	data, err := io.ReadAll(io.LimitReader(resp.Body, ws.fetch.maxBytes+1))
	if err != nil {
		return "", "", false, fmt.Errorf("fetch %s: %w", u, err)
	}
	if int64(len(data)) > ws.fetch.maxBytes {
		data, truncated = data[:ws.fetch.maxBytes], true
	}
	return string(data), resp.Header.Get("Content-Type"), truncated, nil
}

var (
	reDrop  = regexp.MustCompile(`(?is)<script\b.*?</script\s*>|<style\b.*?</style\s*>|<noscript\b.*?</noscript\s*>|<!--.*?-->`)
	reTitle = regexp.MustCompile(`(?is)<title[^>]*>(.*?)</title\s*>`)
	reBlock = regexp.MustCompile(`(?i)</?(p|div|br|li|ul|ol|h[1-6]|tr|table|section|article|header|footer|pre|blockquote)\b[^>]*>`)
	reTag   = regexp.MustCompile(`(?s)<[^>]*>`)
	reSpace = regexp.MustCompile(`[ \t\r\f\v]+`)
	reLines = regexp.MustCompile(`\n\s*\n+`)
)

// htmlText reduces a page to its title and readable text. It is a simple
// tag stripper, not a renderer: good enough for citing and quoting.
func htmlText(page string) (title, text string) {
	page = reDrop.ReplaceAllString(page, " ")
	if m := reTitle.FindStringSubmatch(page); m != nil {
		title = strings.TrimSpace(html.UnescapeString(reSpace.ReplaceAllString(m[1], " ")))
		page = strings.Replace(page, m[0], " ", 1)
	}
	page = reBlock.ReplaceAllString(page, "\n")
	page = reTag.ReplaceAllString(page, " ")
	page = html.UnescapeString(page)
	page = reSpace.ReplaceAllString(page, " ")
	lines := strings.Split(page, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimSpace(l)
	}
	text = strings.TrimSpace(reLines.ReplaceAllString(strings.Join(lines, "\n"), "\n\n"))
	return title, text
}

// webSearch asks SearXNG's JSON API and lists the top results.
func (ws *workspace) webSearch(ctx context.Context, q string) (string, error) {
	if strings.TrimSpace(q) == "" {
		return "", fmt.Errorf("query is empty")
	}
	body, _, _, err := ws.get(ctx, ws.searx+"/search?format=json&q="+url.QueryEscape(q), "application/json")
	if err != nil {
		return "", err
	}
	var res struct {
		Results []struct {
			URL     string `json:"url"`
			Title   string `json:"title"`
			Content string `json:"content"`
		} `json:"results"`
	}
	if err := json.Unmarshal([]byte(body), &res); err != nil {
		return "", fmt.Errorf("decode search results: %w", err)
	}
	if len(res.Results) == 0 {
		return "no results", nil
	}
	var b strings.Builder
	for i, r := range res.Results[:min(len(res.Results), 10)] {
		fmt.Fprintf(&b, "%d. %s\n   %s\n   %s\n", i+1, r.Title, r.URL, truncate(strings.TrimSpace(r.Content), 400))
	}
	return b.String(), nil
}
