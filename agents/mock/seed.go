package mock

import (
	"hash/fnv"
	"strings"
)

// rng is a splitmix64 generator: tiny, fast, and fixed forever, unlike
// math/rand whose streams may change between Go releases. Every choice
// the mock makes comes from one, seeded by seedFor.
type rng struct{ s uint64 }

// seedFor hashes (question, topic) and a salt naming the decision, so the
// research and the review of one topic draw independent streams while
// both stay functions of (question, topic) alone.
func seedFor(question, topic, salt string) *rng {
	h := fnv.New64a()
	h.Write([]byte(question))
	h.Write([]byte{0})
	h.Write([]byte(topic))
	h.Write([]byte{0})
	h.Write([]byte(salt))
	return &rng{s: h.Sum64()}
}

func (r *rng) next() uint64 {
	r.s += 0x9e3779b97f4a7c15
	z := r.s
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// intn returns a number in [0, n); n <= 0 gives 0.
func (r *rng) intn(n int) int {
	if n <= 0 {
		return 0
	}
	return int(r.next() % uint64(n))
}

// pick returns one element of list.
func (r *rng) pick(list []string) string { return list[r.intn(len(list))] }

// perm returns the indexes 0..n-1 in a seeded order (Fisher-Yates).
func (r *rng) perm(n int) []int {
	p := make([]int, n)
	for i := range p {
		p[i] = i
	}
	for i := n - 1; i > 0; i-- {
		j := r.intn(i + 1)
		p[i], p[j] = p[j], p[i]
	}
	return p
}

// slug is the file-name form of a name: lowercase ASCII letters and
// digits joined by single hyphens.
func slug(name string) string {
	var b strings.Builder
	dash := false
	for _, c := range strings.ToLower(name) {
		if ('a' <= c && c <= 'z') || ('0' <= c && c <= '9') {
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			b.WriteRune(c)
			dash = false
		} else {
			dash = true
		}
	}
	if b.Len() == 0 {
		return "topic"
	}
	return b.String()
}

// oneLine collapses all whitespace runs, newlines included, to one space.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
