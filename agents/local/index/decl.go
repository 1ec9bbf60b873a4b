package index

import (
	"path"
	"regexp"
	"strings"
)

// Declaration terms let a question that names an identifier find where it
// is declared. A code passage labelled Is in directory errors carries the
// terms "=is" and "=errors.is"; the question "How does errors.Is work?"
// asks for "=errors.is". The "=" keeps them apart from words, and stop
// words survive in them ("Is" is a function here, not a verb).

// DeclTerms are the declaration terms of a passage labelled label in the
// file rel ("errors/wrap.go").
func DeclTerms(label, rel string) []string {
	if label == "" || strings.ContainsAny(label, " \t") {
		return nil
	}
	l := strings.ToLower(label)
	dir := declDir(rel)
	names := []string{l}
	// A method belongs to its type: a question that names the type
	// (sync.Once) asks for its methods too.
	if recv, _, ok := strings.Cut(l, "."); ok && recv != "" {
		names = append(names, recv)
	}
	var out []string
	for _, n := range names {
		out = append(out, "="+n)
		if dir != "" {
			out = append(out, "="+dir+"."+n)
		}
	}
	return out
}

// identRE matches a qualified name (errors.Is, sync.WaitGroup.Go) or a
// mixed-case identifier (LookPath, WaitGroup).
var identRE = regexp.MustCompile(`[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+|\b[a-z]+[A-Z]\w*|\b[A-Z][a-z0-9]+[A-Z]\w*`)

// identTerms are the declaration terms a text asks for: each identifier,
// and for a qualified one each of its tails (sync.WaitGroup.Go also asks
// for WaitGroup.Go and Go declared in sync is "=sync.waitgroup.go").
func identTerms(text string) []string {
	var out []string
	for _, id := range identRE.FindAllString(text, -1) {
		parts := strings.Split(strings.ToLower(strings.Trim(id, ".")), ".")
		for k := range parts {
			out = append(out, "="+strings.Join(parts[k:], "."))
		}
	}
	return out
}

// declDir is the directory part of a file's declaration terms ("errors"
// for "errors/wrap.go"), or "" when it has none.
func declDir(rel string) string {
	dir := strings.ToLower(path.Base(path.Dir(rel)))
	if dir == "." || dir == "/" {
		return ""
	}
	return dir
}
