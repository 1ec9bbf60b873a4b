package main

import "strings"

// Kinds of flag, as the CLIs' parsers (commander, clap, yargs) see them.
const (
	boolFlag     = iota
	valueFlag    // takes exactly one value
	variadicFlag // commander's <values...>: takes every following non-flag word
	optionalFlag // commander's [value]: takes the next word unless it is a flag
	arrayFlag    // yargs array: repeatable, one value each time here
)

type flagSpec struct {
	names []string // canonical name first; "-x" or "--long"
	kind  int
}

type parsed struct {
	vals  map[string][]string // by canonical name; bool flags get "true"
	pos   []string
	wrong string // the first unknown flag, or a flag missing its value
}

func (p parsed) has(name string) bool   { _, ok := p.vals[name]; return ok }
func (p parsed) get(name string) string { v := p.vals[name]; return last(v) }

func last(v []string) string {
	if len(v) == 0 {
		return ""
	}
	return v[len(v)-1]
}

// parseFlags parses args against specs. "--" ends flags. "--name=value" and
// "-x value" forms are accepted.
func parseFlags(args []string, specs []flagSpec) parsed {
	p := parsed{vals: map[string][]string{}}
	find := func(name string) (flagSpec, bool) {
		for _, s := range specs {
			for _, n := range s.names {
				if n == name {
					return s, true
				}
			}
		}
		return flagSpec{}, false
	}
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			p.pos = append(p.pos, args[i+1:]...)
			break
		}
		if !strings.HasPrefix(a, "-") || a == "-" {
			p.pos = append(p.pos, a)
			continue
		}
		name, val, hasVal := strings.Cut(a, "=")
		s, ok := find(name)
		if !ok {
			if p.wrong == "" {
				p.wrong = name
			}
			continue
		}
		key := s.names[0]
		switch s.kind {
		case boolFlag:
			p.vals[key] = append(p.vals[key], "true")
		case valueFlag, arrayFlag:
			if !hasVal {
				if i+1 >= len(args) {
					if p.wrong == "" {
						p.wrong = name
					}
					continue
				}
				i++
				val = args[i]
			}
			p.vals[key] = append(p.vals[key], val)
		case optionalFlag:
			if !hasVal && i+1 < len(args) && !strings.HasPrefix(args[i+1], "-") {
				i++
				val = args[i]
			}
			p.vals[key] = append(p.vals[key], val)
		case variadicFlag:
			if hasVal {
				p.vals[key] = append(p.vals[key], val)
			}
			for i+1 < len(args) && !strings.HasPrefix(args[i+1], "-") {
				i++
				p.vals[key] = append(p.vals[key], args[i])
			}
		}
	}
	return p
}

func specs(kind int, names ...string) flagSpec { return flagSpec{names: names, kind: kind} }
