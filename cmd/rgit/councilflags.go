package main

import (
	"context"
	"fmt"
	"os"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/rgit-dev/rgit/agents/registry"
	"github.com/rgit-dev/rgit/agents/registry/catalog"
	"github.com/rgit-dev/rgit/phases"
)

// councilFlags are `rgit research`'s council flags (seed 000).
func councilFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "council", Usage: "research with several agents side by side: SPEC,SPEC,... (claude, codex:MODEL, local, mock:NAME, ...) or auto (every installed backend); --jobs bounds the members at work at once (default: all)", EnvVars: []string{"RGIT_COUNCIL"}},
		&cli.StringFlag{Name: "synthesizer", Usage: "the council agent that writes the report (default: the first member)"},
		&cli.IntFlag{Name: "member-iterations", Usage: fmt.Sprintf("research iterations per council member (default %d; 2 with --test)", phases.DefaultMemberIterations)},
		&cli.StringFlag{Name: "member", Usage: "with --resume: run only this council member's research loop (in this clone)"},
	}
}

// councilConfig reads the council flags into cfg.Council; bad specs are
// usage errors, before anything is written.
func councilConfig(c *cli.Context, cfg *phases.Config) error {
	cc := phases.CouncilConfig{Synthesizer: strings.TrimSpace(c.String("synthesizer")), MemberIterations: c.Int("member-iterations"),
		Member: strings.TrimSpace(c.String("member"))}
	spec := strings.TrimSpace(c.String("council"))
	switch {
	case spec == "auto":
		found, err := autoCouncil(registry.Detect(context.Background(), registry.Options{Getenv: os.Getenv}), os.Getenv)
		if err != nil {
			return err
		}
		cc.Specs = found
	case spec != "":
		for _, s := range strings.Split(spec, ",") {
			if s = strings.TrimSpace(s); s != "" {
				cc.Specs = append(cc.Specs, s)
			}
		}
	}
	for _, s := range append(append([]string{}, cc.Specs...), cc.Synthesizer) {
		if s == "" {
			continue
		}
		if b, _, err := registry.Parse(s); err != nil || b == "auto" {
			if err == nil {
				err = fmt.Errorf("parse agent %q: a council member must name its backend", s)
			}
			return usagef("name council members as backend[:model], for example --council claude,codex:gpt-5.3-codex,mock:alpha", "%v", err)
		}
	}
	if c.Bool("test") && len(cc.Specs) > 0 {
		opts := registry.Options{Getenv: os.Getenv}
		for i, s := range cc.Specs {
			cc.Specs[i] = testModel(s, opts, registry.Auto)
		}
		if cc.Synthesizer != "" {
			cc.Synthesizer = testModel(cc.Synthesizer, opts, registry.Auto)
		}
		if cc.MemberIterations == 0 {
			cc.MemberIterations = 2
		}
	}
	cfg.Council = cc
	return nil
}

// autoCouncil is every usable CLI or HTTP backend; a council needs two.
func autoCouncil(statuses []registry.Status, getenv func(string) string) ([]string, error) {
	var specs, have, missing []string
	for _, st := range statuses {
		b, _ := registry.Lookup(st.Backend)
		if b.Kind == catalog.Builtin {
			continue
		}
		spec := st.Backend
		if b.Kind == catalog.HTTP {
			spec = "openai:" + getenv("OPENAI_MODEL")
		}
		switch {
		case st.Found && st.Missing == "" && spec != "openai:":
			specs, have = append(specs, spec), append(have, st.Backend)
		case st.Missing != "":
			missing = append(missing, fmt.Sprintf("%s: %s", st.Backend, st.Missing))
		default:
			missing = append(missing, st.Backend+": OPENAI_MODEL (the model to call)")
		}
	}
	if len(specs) >= 2 {
		return specs, nil
	}
	found := "none"
	if len(have) > 0 {
		found = strings.Join(have, ", ")
	}
	return nil, usagef("install or log in to at least two of them: "+strings.Join(missing, "; "),
		"--council auto needs two usable agent backends, found %d (%s)", len(specs), found)
}
