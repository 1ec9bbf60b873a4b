package claude

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/rgit-dev/rgit/agents"
	"github.com/rgit-dev/rgit/agents/proc/proctest"
)

// TestRealCLI runs the installed Claude Code named by RGIT_REAL_CLAUDE
// against the scripted model server: the flags, the file write in the
// workspace (as root too) and the parsing meet the real binary. It is
// skipped without that variable.
func TestRealCLI(t *testing.T) {
	proctest.Scripted{Env: "RGIT_REAL_CLAUDE", Timeout: 2 * time.Minute,
		New: func(t *testing.T, binary, addr string) agents.Agent {
			home := t.TempDir()
			return New(Options{Binary: binary, Env: []string{"HOME=" + home, "CLAUDE_CONFIG_DIR=" + filepath.Join(home, ".claude"),
				"ANTHROPIC_BASE_URL=http://" + addr, "ANTHROPIC_API_KEY=sk-ant-test-" + proctest.KeyTail,
				"CLAUDE_CODE_MAX_RETRIES=0", "DISABLE_AUTOUPDATER=1"}})
		},
		Valid: func(res agents.Result) bool { return res.SessionID != "" && res.Usage.OutputTokens > 0 },
	}.Test(t)
}
