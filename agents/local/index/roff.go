package index

import (
	"regexp"
	"strings"
)

// Man pages are roff source: requests (lines starting with "." or "'")
// and text with inline escapes. roffText keeps one output line per source
// line, so citations keep the file's own line numbers: a request becomes
// its text (.B, .IR and the other font requests, .SH and .SS headings,
// .IP tags) or an empty line (.PP and the like start a paragraph, which
// Split sees as a blank line), and comments become empty lines.

var manExt = regexp.MustCompile(`^\.[1-9][a-z0-9]*$`)

// isMan reports whether a file name (without .gz) is a man page.
func isMan(name string) bool {
	ext := strings.ToLower(name[strings.LastIndexByte(name, '.')+1:])
	return strings.Contains(name, ".") && (manExt.MatchString("."+ext) || ext == "man" || ext == "roff")
}

// roffText turns roff source into text, line for line.
func roffText(src string) string {
	lines := strings.Split(src, "\n")
	for i, l := range lines {
		lines[i] = roffLine(strings.TrimSuffix(l, "\r"))
	}
	return strings.Join(lines, "\n")
}

// roffLine converts one source line.
func roffLine(l string) string {
	if l == "" || l[0] != '.' && l[0] != '\'' {
		return roffInline(l)
	}
	req, args := roffRequest(l)
	switch req {
	case "B", "I", "SM", "SB", "SH", "SS":
		return roffInline(strings.Join(args, " "))
	case "BR", "RB", "IR", "RI", "BI", "IB":
		return roffInline(strings.Join(args, ""))
	case "IP", "TQ":
		if len(args) > 0 {
			return roffInline(args[0])
		}
	case "UR", "MT":
		if len(args) > 0 {
			return roffInline(args[0])
		}
	}
	return "" // comments, paragraph and layout requests
}

// roffHeading returns the text of a .SH or .SS line.
func roffHeading(l string) (string, bool) {
	if !strings.HasPrefix(l, ".SH") && !strings.HasPrefix(l, ".SS") {
		return "", false
	}
	req, args := roffRequest(l)
	if req != "SH" && req != "SS" || len(args) == 0 {
		return "", false
	}
	return strings.TrimSpace(roffInline(strings.Join(args, " "))), true
}

// roffTitle returns the page name and section of a .TH line ("pipe(7)").
func roffTitle(l string) (string, bool) {
	req, args := roffRequest(l)
	if req != "TH" || len(args) < 2 {
		return "", false
	}
	return roffInline(args[0]) + "(" + roffInline(args[1]) + ")", true
}

// roffRequest splits a request line into its name and arguments (double
// quotes group words).
func roffRequest(l string) (string, []string) {
	if l == "" || l[0] != '.' && l[0] != '\'' {
		return "", nil
	}
	l = strings.TrimLeft(l[1:], " \t")
	if strings.HasPrefix(l, `\"`) {
		return `\"`, nil
	}
	name, rest, _ := strings.Cut(l, " ")
	var args []string
	for rest = strings.TrimSpace(rest); rest != ""; rest = strings.TrimSpace(rest) {
		if rest[0] == '"' {
			end := strings.IndexByte(rest[1:], '"')
			if end < 0 {
				args = append(args, rest[1:])
				break
			}
			args = append(args, rest[1:1+end])
			rest = rest[2+end:]
			continue
		}
		a, r, _ := strings.Cut(rest, " ")
		args = append(args, a)
		rest = r
	}
	return name, args
}

// roffChars are the named characters a man page uses most.
var roffChars = map[string]string{
	"em": "--", "en": "-", "aq": "'", "dq": `"`, "lq": `"`, "rq": `"`, "oq": "'", "cq": "'",
	"bu": "*", "co": "(c)", "rg": "(R)", "mi": "-", "hy": "-", "ti": "~", "ha": "^",
	"<=": "<=", ">=": ">=", "!=": "!=", "->": "->", "<-": "<-", "mu": "x", "de": "°",
}

// roffInline removes font changes and decodes escapes.
func roffInline(s string) string {
	if strings.IndexByte(s, '\\') < 0 {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' || i+1 >= len(s) {
			b.WriteByte(c)
			continue
		}
		i++
		switch e := s[i]; e {
		case '-', 'e', '\\':
			if e == '-' {
				b.WriteByte('-')
			} else {
				b.WriteByte('\\')
			}
		case ' ', '~', '0':
			b.WriteByte(' ')
		case '&', '|', '^', '%', 'c', ':', ',', '/':
		case '"': // comment to the end of the line
			return strings.TrimRight(b.String(), " ")
		case 'f', 's', '*', 'n', 'F', 'm', 'k', 'g':
			i = roffSkipArg(s, i+1, e == 's') - 1
		case '(':
			if i+2 < len(s) {
				b.WriteString(roffChars[s[i+1:i+3]])
				i += 2
			}
		case '[':
			end := strings.IndexByte(s[i:], ']')
			if end < 0 {
				return b.String()
			}
			b.WriteString(roffChars[s[i+1:i+end]])
			i += end
		default:
			b.WriteByte(e)
		}
	}
	return b.String()
}

// roffSkipArg returns the index after an escape's argument starting at i:
// one character, (xx, or [name]; sign allows a size's +N/-N.
func roffSkipArg(s string, i int, sign bool) int {
	if i >= len(s) {
		return i
	}
	if sign && (s[i] == '+' || s[i] == '-') {
		i++
	}
	switch {
	case i >= len(s):
		return i
	case s[i] == '(':
		return min(len(s), i+3)
	case s[i] == '[':
		if end := strings.IndexByte(s[i:], ']'); end >= 0 {
			return i + end + 1
		}
		return len(s)
	}
	return i + 1
}
