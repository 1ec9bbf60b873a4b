// Package prompts holds rgit's phase prompt templates: the embedded
// defaults, the user's copies in .research/templates/, and their
// expansion.
//
// Templates follow Python's string.Template syntax, as the original
// research.py did: "$name" or "${name}" expands a variable and "$$" is a
// literal dollar sign. Every template is validated before the loop starts:
// any other "$", or a name that is not one of Variables(), is an *Error
// with file, line and column. A Set holds every parsed template (Names), so
// rendering is a plain concatenation with no parsing left to fail.
package prompts

import (
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

//go:embed defaults/*.md
var defaultFS embed.FS

// Set is a validated set of the templates of Names, ready to render. It is
// safe for concurrent use.
type Set struct {
	tmpl map[string][]segment
	src  map[string][]byte
}

// defaultSet is parsed once; the embedded files cannot change.
var defaultSet = func() *Set {
	s := &Set{tmpl: map[string][]segment{}, src: map[string][]byte{}}
	for _, name := range Names {
		src, err := defaultFS.ReadFile("defaults/" + name)
		if err == nil {
			err = s.add(name, src)
		}
		if err != nil {
			panic(fmt.Sprintf("prompts: embedded default: %v", err))
		}
	}
	return s
}()

// Default returns the embedded default templates.
func Default() *Set { return defaultSet }

// DefaultSource returns the embedded default text of a template, or nil
// for an unknown name.
func DefaultSource(name string) []byte { return defaultSet.src[name] }

// Load reads the templates of Names from dir. A missing file (or a missing
// dir) means the default; every file present is validated, and all
// problems are returned joined, each an *Error naming its file.
func Load(dir string) (*Set, error) {
	s := &Set{tmpl: map[string][]segment{}, src: map[string][]byte{}}
	var errs []error
	for _, name := range Names {
		path := filepath.Join(dir, name)
		src, err := os.ReadFile(path)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			s.tmpl[name], s.src[name] = defaultSet.tmpl[name], defaultSet.src[name]
			continue
		case err != nil:
			errs = append(errs, fmt.Errorf("read template: %w", err))
			continue
		}
		if err := s.addFile(path, name, src); err != nil {
			errs = append(errs, err)
		}
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	return s, nil
}

func (s *Set) add(name string, src []byte) error {
	return s.addFile(name, name, src)
}

func (s *Set) addFile(path, name string, src []byte) error {
	segs, err := parse(path, src)
	if err != nil {
		return err
	}
	s.tmpl[name], s.src[name] = segs, src
	return nil
}

// Source returns the text a template was loaded from, or nil for an
// unknown name.
func (s *Set) Source(name string) []byte { return s.src[name] }

// Render expands template name with vars. A variable the template uses
// but vars lacks renders as "". A key of vars that is not one of
// Variables() is an error, since it is a typo on the caller's side that
// would otherwise silently render nothing.
func (s *Set) Render(name string, vars map[string]string) (string, error) {
	segs, ok := s.tmpl[name]
	if !ok {
		return "", fmt.Errorf("render template %q: unknown template; templates are %s", name, strings.Join(Names, ", "))
	}
	for k := range vars {
		if _, ok := variables[k]; !ok {
			return "", fmt.Errorf("render template %s: unknown variable %q", name, k)
		}
	}
	n := 0
	for _, seg := range segs {
		n += len(seg.lit) + len(vars[seg.name])
	}
	var b strings.Builder
	b.Grow(n)
	for _, seg := range segs {
		if seg.name != "" {
			b.WriteString(vars[seg.name])
		} else {
			b.WriteString(seg.lit)
		}
	}
	return b.String(), nil
}

// Uses reports the variables template name refers to, sorted and without
// duplicates: what a phase must fill for the template to be complete.
func (s *Set) Uses(name string) []string {
	var names []string
	for _, seg := range s.tmpl[name] {
		if seg.name != "" && !slices.Contains(names, seg.name) {
			names = append(names, seg.name)
		}
	}
	slices.Sort(names)
	return names
}
