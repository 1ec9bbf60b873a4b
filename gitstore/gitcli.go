package gitstore

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
)

// gitPath is the git executable on PATH, or "" when git is not installed.
var gitPath = sync.OnceValue(func() string {
	p, err := exec.LookPath("git")
	if err != nil {
		return ""
	}
	return p
})

// runGit runs git in dir with stdin and returns its standard output. The
// caller's GIT_DIR, GIT_WORK_TREE and GIT_INDEX_FILE are dropped so git finds
// the repository from dir, as the user's own git would there.
func runGit(ctx context.Context, dir string, stdin []byte, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, gitPath(), args...)
	cmd.Dir = dir
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		switch k {
		case "GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_COMMON_DIR", "GIT_PREFIX":
			continue
		}
		cmd.Env = append(cmd.Env, kv)
	}
	if stdin != nil {
		cmd.Stdin = bytes.NewReader(stdin)
	}
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		msg := strings.TrimSpace(errb.String())
		if msg == "" {
			msg = err.Error()
		}
		return out.String(), fmt.Errorf("git %s: %s", args[0], msg)
	}
	return out.String(), nil
}
