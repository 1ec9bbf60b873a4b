package plan

import (
	"hash/fnv"
	"maps"
	"slices"
	"strconv"
	"strings"
)

// maxSlug bounds a slug's length so progress file names stay portable.
const maxSlug = 64

// folds maps common accented Latin letters to ASCII, so "Café" becomes
// "cafe" rather than "caf".
var folds = map[rune]string{
	'à': "a", 'á': "a", 'â': "a", 'ã': "a", 'ä': "a", 'å': "a", 'æ': "ae",
	'ç': "c", 'è': "e", 'é': "e", 'ê': "e", 'ë': "e", 'ì': "i", 'í': "i",
	'î': "i", 'ï': "i", 'ñ': "n", 'ò': "o", 'ó': "o", 'ô': "o", 'õ': "o",
	'ö': "o", 'ø': "o", 'ù': "u", 'ú': "u", 'û': "u", 'ü': "u", 'ý': "y",
	'ÿ': "y", 'ß': "ss", 'œ': "oe", 'ł': "l", 'š': "s", 'ž': "z", 'č': "c",
}

// Slug turns a topic name into a file name: lowercase ASCII letters and
// digits separated by single hyphens ("Machine Learning Fundamentals" ->
// "machine-learning-fundamentals"). It is never empty and never contains
// "/" or "."; a name with no ASCII letters or digits gets "topic-" and a
// hash of the name, so different such names still differ.
func Slug(name string) string {
	var b strings.Builder
	hyphen := false
	for _, r := range strings.ToLower(name) {
		s := ""
		switch {
		case r >= 'a' && r <= 'z' || r >= '0' && r <= '9':
			s = string(r)
		default:
			s = folds[r]
		}
		if s == "" {
			hyphen = b.Len() > 0
			continue
		}
		if hyphen {
			b.WriteByte('-')
			hyphen = false
		}
		b.WriteString(s)
	}
	slug := b.String()
	if len(slug) > maxSlug {
		slug = strings.TrimRight(slug[:maxSlug], "-")
		if i := strings.LastIndexByte(slug, '-'); i > maxSlug/2 {
			slug = slug[:i]
		}
	}
	if slug == "" {
		h := fnv.New32a()
		h.Write([]byte(name))
		slug = "topic-" + strconv.FormatUint(uint64(h.Sum32()), 36)
	}
	return slug
}

// Slugs assigns stable slugs: existing maps topic name -> slug from earlier
// runs and is honoured; returns the full map (new topics get fresh unique
// slugs; collisions -2, -3). Entries of existing for names no longer in the
// plan (renamed topics) stay in the map and keep their slugs reserved, so a
// new topic never takes over an old topic's progress file. An existing slug
// that is not a valid slug (state is read from disk) is replaced.
func Slugs(p *Plan, existing map[string]string) map[string]string {
	out := make(map[string]string, len(p.Topics)+len(existing))
	used := make(map[string]bool, len(p.Topics)+len(existing))
	// Topics of the plan first, in plan order, so that when a damaged state
	// maps two names to one slug the earlier topic keeps it.
	for _, t := range p.Topics {
		if s, ok := existing[t.Name]; ok && validSlug(s) && !used[s] {
			out[t.Name], used[s] = s, true
		}
	}
	// Then the old names, sorted: which of two stale names sharing a slug
	// keeps it must not depend on map order.
	for _, name := range slices.Sorted(maps.Keys(existing)) {
		s := existing[name]
		if _, done := out[name]; !done && p.Find(name) == nil && validSlug(s) && !used[s] {
			out[name], used[s] = s, true
		}
	}
	for _, t := range p.Topics {
		if _, done := out[t.Name]; done {
			continue
		}
		base := Slug(t.Name)
		s := base
		for n := 2; used[s]; n++ {
			s = base + "-" + strconv.Itoa(n)
		}
		out[t.Name], used[s] = s, true
	}
	return out
}

// validSlug reports whether s could have come from Slug: safe as one path
// element inside the workspace.
func validSlug(s string) bool {
	if s == "" || len(s) > maxSlug+12 || s[0] == '-' || s[len(s)-1] == '-' {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-') {
			return false
		}
	}
	return true
}
