package report

// Byte matchers equivalent to goldmark v1.8.7's linkify patterns, as
// Go's regexp.FindSubmatchIndex runs them (leftmost-first):
//
//	url: ^(?:http|https|ftp)://[D]{1,256}\.[a-z]+(?::\d+)?(?:[/#?][P]*)?
//	www: ^www\.[D]{1,256}\.[a-z]+(?:[/#?][W]*)?
//
// D is the host class below, P the path class and W the path class
// without '$'. Every class is ASCII, so a byte outside ASCII (or invalid
// UTF-8, which the regexp reads as U+FFFD) never matches, as here.
//
// Everything after [a-z]+ is optional and cannot fail, so the first
// choice of each quantifier in priority order is the match: [D]{1,256}
// gives back characters only until a '.' followed by a lowercase letter
// comes next, and the rest takes all it can.

var hostChars, urlPathChars, wwwPathChars [256]bool

func init() {
	set := func(t *[256]bool, chars string) {
		for i := range len(chars) {
			t[chars[i]] = true
		}
	}
	const alnum = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
	set(&hostChars, alnum+"-@:%._+~#=")
	set(&wwwPathChars, alnum+"-@:%_+.~#!?&/=();,'\">^{}[]`")
	urlPathChars = wwwPathChars
	urlPathChars['$'] = true
}

func isLower(c byte) bool { return 'a' <= c && c <= 'z' }
func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// matchURL is the length of the url pattern's match at the start of
// line, or -1.
func matchURL(line []byte) int {
	var i int
	switch {
	case hasPrefix(line, "http://"):
		i = 7
	case hasPrefix(line, "https://"):
		i = 8
	case hasPrefix(line, "ftp://"):
		i = 6
	default:
		return -1
	}
	i = matchHost(line, i)
	if i < 0 {
		return -1
	}
	if i+1 < len(line) && line[i] == ':' && isDigit(line[i+1]) {
		i += 2
		for i < len(line) && isDigit(line[i]) {
			i++
		}
	}
	return matchPath(line, i, &urlPathChars)
}

// matchWWW is the length of the www pattern's match at the start of
// line, or -1.
func matchWWW(line []byte) int {
	if !hasPrefix(line, "www.") {
		return -1
	}
	i := matchHost(line, 4)
	if i < 0 {
		return -1
	}
	return matchPath(line, i, &wwwPathChars)
}

// matchHost matches [D]{1,256}\.[a-z]+ at line[from:] and returns where
// the match ends, or -1.
func matchHost(line []byte, from int) int {
	run := from
	for run < len(line) && run-from < 257 && hostChars[line[run]] {
		run++
	}
	// The dot ends the {1,256} run: it is at from+1 .. from+256, and the
	// greedy run tries the farthest first.
	for dot := min(run, from+256, len(line)-2); dot > from; dot-- {
		if line[dot] == '.' && isLower(line[dot+1]) {
			end := dot + 2
			for end < len(line) && isLower(line[end]) {
				end++
			}
			return end
		}
	}
	return -1
}

// matchPath matches the optional (?:[/#?][class]*) at line[i:] and returns
// where the whole match ends.
func matchPath(line []byte, i int, class *[256]bool) int {
	if i < len(line) && (line[i] == '/' || line[i] == '#' || line[i] == '?') {
		i++
		for i < len(line) && class[line[i]] {
			i++
		}
	}
	return i
}

func hasPrefix(b []byte, s string) bool { return len(b) >= len(s) && string(b[:len(s)]) == s }
