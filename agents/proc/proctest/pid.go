package proctest

import (
	"fmt"
	"os"
	"strconv"
	"strings"
)

// PIDAlive reports whether the process whose pid is written in file still
// runs (a zombie counts as dead where the system can tell). A missing file
// is an error.
func PIDAlive(file string) (bool, error) {
	b, err := os.ReadFile(file)
	if err != nil {
		return false, err
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil {
		return false, fmt.Errorf("read pid file: %w", err)
	}
	return alive(pid), nil
}
