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
