package redact

import (
	"strings"
	"testing"
)

// BenchmarkString measures the common case, a stream-json line with no
// secret (it should not allocate), and a line that holds one.
func BenchmarkString(b *testing.B) {
	r := New(append(testEnv, "OPENAI_API_KEY=sk-proj-"+strings.Repeat("x", 40)))
	lines := map[string]string{
		"clean":  `{"type":"assistant","message":{"content":[{"type":"text","text":"Rayleigh scattering, though, is strongest at high frequencies: the sky looks blue."}]}}`,
		"secret": `{"type":"result","is_error":true,"result":"Invalid API key not-shaped-like-a-key-42 · Fix external API key"}`,
	}
	for name, line := range lines {
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(line)))
			for b.Loop() {
				r.String(line)
			}
		})
	}
}
