package opencode

import (
	"strings"
	"testing"
	"time"

	"github.com/rgit-dev/rgit/agents"
	"github.com/rgit-dev/rgit/agents/proc/proctest"
)

// TestRealCLI runs the installed opencode named by RGIT_REAL_OPENCODE
// against the scripted model server as an OpenAI-compatible provider: the
// flags, the permission setting, the file write and the parsing meet the
// real binary. Skipped without that variable.
func TestRealCLI(t *testing.T) {
	proctest.Scripted{Env: "RGIT_REAL_OPENCODE", Model: "loc/scripted", Timeout: 3 * time.Minute,
		New: func(t *testing.T, binary, addr string) agents.Agent {
			config := `{"provider":{"loc":{"npm":"@ai-sdk/openai-compatible","name":"Scripted",` +
				`"options":{"baseURL":"http://` + addr + `/v1","apiKey":"sk-test-` + proctest.KeyTail + `"},` +
				`"models":{"scripted":{"name":"scripted"}}}}}`
			// XDG dirs stay real so the provider package cached by an
			// earlier run is found; only the config is injected.
			return New(Options{Binary: binary, Env: []string{"OPENCODE_CONFIG_CONTENT=" + config,
				"OPENCODE_DISABLE_AUTOUPDATE=1", "OPENCODE_CONFIG_DIR=" + t.TempDir()}})
		},
		Valid: func(res agents.Result) bool { return strings.HasPrefix(res.SessionID, "ses_") },
	}.Test(t)
}
