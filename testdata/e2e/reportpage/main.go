// Command reportpage is browser.sh's helper. It writes the HTML page of a
// test session, read from phases/report/testdata/sessions/<name>
// (session.json, report.md, research_plan.md, the fixtures of package
// report's tests), and it reads a Chromium NetLog for the requests a page
// made:
//
//	go run ./testdata/e2e/reportpage -session kitchen -o /tmp/page.html
//	go run ./testdata/e2e/reportpage -netlog /tmp/net.json
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/rgit-dev/rgit/phases/plan"
	"github.com/rgit-dev/rgit/phases/report"
)

func main() {
	dir := flag.String("sessions", "phases/report/testdata/sessions", "directory of the session fixtures")
	name := flag.String("session", "kitchen", "fixture to render")
	out := flag.String("o", "", "HTML file to write")
	netlog := flag.String("netlog", "", "Chromium NetLog to list the page's requests from (exit 1 if any)")
	flag.Parse()
	if *netlog != "" {
		os.Exit(pageRequests(*netlog))
	}
	if *out == "" {
		fmt.Fprintln(os.Stderr, "reportpage: -o FILE or -netlog FILE is required")
		os.Exit(2)
	}
	s, err := load(filepath.Join(*dir, *name))
	if err != nil {
		fmt.Fprintln(os.Stderr, "reportpage:", err)
		os.Exit(1)
	}
	var b bytes.Buffer
	if err := report.RenderHTML(&b, s); err != nil {
		fmt.Fprintln(os.Stderr, "reportpage:", err)
		os.Exit(1)
	}
	if err := os.WriteFile(*out, b.Bytes(), 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "reportpage:", err)
		os.Exit(1)
	}
}

// load reads a fixture the way the report tests do: Session's fields,
// phase commits as subject and trailers, the report and the plan.
func load(dir string) (*report.Session, error) {
	data, err := os.ReadFile(filepath.Join(dir, "session.json"))
	if err != nil {
		return nil, err
	}
	var f struct {
		report.Session
		Phases []struct {
			Commit, Summary string
			When            time.Time
			Trailers        map[string]string
		}
	}
	if err := json.Unmarshal(data, &f); err != nil {
		return nil, fmt.Errorf("%s: %w", dir, err)
	}
	s := f.Session
	for _, p := range f.Phases {
		if row, ok := report.PhaseFromTrailers(p.Commit, p.When, p.Summary, func(k string) string { return p.Trailers[k] }); ok {
			s.Phases = append(s.Phases, row)
		}
	}
	if s.Report, err = os.ReadFile(filepath.Join(dir, "report.md")); err != nil {
		return nil, err
	}
	if src, err := os.ReadFile(filepath.Join(dir, "research_plan.md")); err == nil {
		if s.Plan, err = plan.Parse("research_plan.md", src); err != nil {
			return nil, err
		}
	}
	return &s, nil
}

// netLog is the part of Chromium's --log-net-log file read here.
type netLog struct {
	Constants struct {
		LogEventTypes map[string]int `json:"logEventTypes"`
	} `json:"constants"`
	Events []struct {
		Type   int            `json:"type"`
		Params map[string]any `json:"params"`
	} `json:"events"`
}

// pageRequests prints every network request a file:// page started and
// returns 1 if there was one, 2 if the log cannot be read. A request
// belongs to the page when its network isolation key is the file:// origin;
// the browser's own background requests (updates, sign-in) have none and
// are not the page's doing.
func pageRequests(path string) int {
	data, err := os.ReadFile(path)
	if err != nil {
		fmt.Fprintln(os.Stderr, "reportpage:", err)
		return 2
	}
	var nl netLog
	if err := json.Unmarshal(data, &nl); err != nil {
		fmt.Fprintf(os.Stderr, "reportpage: %s: %v\n", path, err)
		return 2
	}
	start, ok := nl.Constants.LogEventTypes["URL_REQUEST_START_JOB"]
	if !ok {
		fmt.Fprintf(os.Stderr, "reportpage: %s: no URL_REQUEST_START_JOB event type\n", path)
		return 2
	}
	found := 0
	for _, e := range nl.Events {
		if e.Type != start {
			continue
		}
		url, _ := e.Params["url"].(string)
		key, _ := e.Params["network_isolation_key"].(string)
		if strings.HasPrefix(url, "file:") || !strings.HasPrefix(key, "file://") {
			continue
		}
		fmt.Println("page request:", url)
		found++
	}
	if found > 0 {
		return 1
	}
	return 0
}
