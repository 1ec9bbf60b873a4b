package index

import (
	"bytes"
	"compress/gzip"
	"html"
	"io"
	"path/filepath"
	"regexp"
	"strings"
	"unicode/utf8"
	"unsafe"
)

// MaxFileSize is the size cap: larger files are generated data, not prose
// or code a reader would quote.
const MaxFileSize = 1 << 20

// Kind is how a file is split into passages.
type Kind uint8

// The kinds of file the index reads.
const (
	Prose Kind = iota // paragraphs under headings: text, Markdown, HTML
	Code              // declarations with their doc comments
)

var codeExt = map[string]bool{
	".go": true, ".c": true, ".h": true, ".cc": true, ".cpp": true, ".hpp": true, ".s": true,
	".py": true, ".js": true, ".ts": true, ".java": true, ".rs": true, ".rb": true, ".sh": true,
	".bash": true, ".kt": true, ".swift": true, ".cs": true, ".php": true, ".pl": true, ".lua": true,
	".scala": true, ".m": true, ".proto": true, ".zig": true,
}

// KindOf classifies a file by its extension (a compressed file by the name
// under .gz).
func KindOf(path string) Kind {
	if codeExt[strings.ToLower(filepath.Ext(strings.TrimSuffix(path, ".gz")))] {
		return Code
	}
	return Prose
}

// maxUnzipped caps a compressed file's content: man pages and READMEs are
// far smaller, and a larger one is data.
const maxUnzipped = 8 << 20

// decode returns a file's content and the name that says its format: a
// gzip-compressed file (man pages, /usr/share/doc) is decompressed and
// named without its .gz.
// The content is returned as a string made without copying: data must not
// change afterwards.
func decode(path string, data []byte) (string, string, bool) {
	if !strings.HasSuffix(strings.ToLower(path), ".gz") {
		return path, unsafe.String(unsafe.SliceData(data), len(data)), true
	}
	zr, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		return path, "", false
	}
	out, err := io.ReadAll(io.LimitReader(zr, maxUnzipped+1))
	if err != nil || len(out) > maxUnzipped {
		return path, "", false
	}
	return path[:len(path)-3], unsafe.String(unsafe.SliceData(out), len(out)), true
}

// Text returns the readable text of a file, with exactly as many lines as
// the file has, so that line numbers in citations are the file's own (for
// a compressed file, the lines of its decompressed content). HTML loses its
// tags, comments, scripts and styles (their lines stay, emptied) and its
// entities are decoded; a man page's roff requests become their text or
// empty lines (see roffText). ok is false for binary content: a NUL byte or
// invalid UTF-8.
func Text(path string, data []byte) (text string, ok bool) {
	path, raw, ok := decode(path, data)
	if !ok {
		return "", false
	}
	return textOf(path, raw)
}

// textOf is Text of decoded content; for plain text it is raw itself.
func textOf(path, raw string) (string, bool) {
	head := raw[:min(len(raw), 8000)]
	if strings.IndexByte(head, 0) >= 0 || !utf8.ValidString(raw) {
		return "", false
	}
	switch ext := strings.ToLower(filepath.Ext(path)); {
	case ext == ".html" || ext == ".htm" || ext == ".xhtml":
		return stripHTML(raw), true
	case isMan(path):
		return roffText(raw), true
	}
	return raw, true
}

// Lines splits text into lines without their line endings.
func Lines(text string) []string {
	return appendLines(nil, text)
}

// appendLines appends the lines of text to out, as Lines returns them.
func appendLines(out []string, text string) []string {
	text = strings.TrimSuffix(text, "\n")
	if text == "" {
		return out
	}
	for {
		i := strings.IndexByte(text, '\n')
		if i < 0 {
			return append(out, strings.TrimSuffix(text, "\r"))
		}
		out = append(out, strings.TrimSuffix(text[:i], "\r"))
		text = text[i+1:]
	}
}

// stripHTML removes markup but keeps every newline.
func stripHTML(s string) string {
	var out strings.Builder
	out.Grow(len(s))
	for i := 0; i < len(s); {
		if s[i] != '<' {
			j := strings.IndexByte(s[i:], '<')
			if j < 0 {
				j = len(s) - i
			}
			out.WriteString(s[i : i+j])
			i += j
			continue
		}
		end := ">"
		lower := strings.ToLower(s[i:min(len(s), i+8)])
		switch {
		case strings.HasPrefix(lower, "<!--"):
			end = "-->"
		case strings.HasPrefix(lower, "<script"):
			end = "</script>"
		case strings.HasPrefix(lower, "<style"):
			end = "</style>"
		}
		j := indexFold(s[i:], end)
		if j < 0 {
			j = len(s) - i
		} else {
			j += len(end)
		}
		out.WriteString(strings.Repeat("\n", strings.Count(s[i:i+j], "\n")))
		i += j
	}
	lines := strings.Split(out.String(), "\n")
	for k, l := range lines {
		if strings.IndexByte(l, '&') >= 0 {
			lines[k] = strings.ReplaceAll(html.UnescapeString(l), "\n", " ")
		}
	}
	return strings.Join(lines, "\n")
}

// indexFold is strings.Index ignoring ASCII case, for the ends of tags.
func indexFold(s, sub string) int {
	if sub[0] != '<' {
		return strings.Index(s, sub)
	}
	for k := 0; k+len(sub) <= len(s); k++ {
		if s[k] == '<' && strings.EqualFold(s[k:k+len(sub)], sub) {
			return k
		}
	}
	return -1
}

var (
	htmlHeading = regexp.MustCompile(`(?i)<h[1-6][^>]*>(.*?)</h[1-6]>`)
	anyTag      = regexp.MustCompile(`<[^>]*>`)
	titleLine   = regexp.MustCompile(`(?i)^\s*(?:"title"\s*:\s*"([^"]+)"|title:\s*"?([^"]+?)"?\s*$|<title>(.*)</title>|# (.+))`)
)

// Outline returns a prose file's title and its headings by 1-based line:
// Markdown's "# " lines and front matter, HTML's <title>, <h1>-<h6> and the
// {"Title": ...} header of the Go documentation, a man page's .TH, .SH and
// .SS. The title boosts every passage of the file; a heading labels the
// passages under it. raw is the file's content (decompressed).
func Outline(path string, lines []string, raw string) (title string, heads map[int]string) {
	if KindOf(path) == Code {
		return "", nil
	}
	heads = map[int]string{}
	path = strings.TrimSuffix(path, ".gz")
	ext := strings.ToLower(filepath.Ext(path))
	html := ext == ".html" || ext == ".htm" || ext == ".xhtml"
	if isMan(path) {
		for i, l := range strings.Split(raw, "\n") {
			if h, ok := roffHeading(l); ok {
				heads[i+1] = h
			} else if t, ok := roffTitle(l); ok && title == "" {
				title = t
			}
		}
		return title, heads
	}
	rawLines := lines
	if html {
		rawLines = strings.Split(raw, "\n")
	}
	for i, l := range rawLines {
		if i < 20 && title == "" {
			if m := titleLine.FindStringSubmatch(l); m != nil {
				title = strings.TrimSpace(m[1] + m[2] + m[3] + m[4])
			}
		}
		if html {
			if m := htmlHeading.FindStringSubmatch(l); m != nil {
				heads[i+1] = strings.TrimSpace(htmlUnescape(anyTag.ReplaceAllString(m[1], "")))
			}
		}
	}
	return title, heads
}

func htmlUnescape(s string) string { return html.UnescapeString(s) }
