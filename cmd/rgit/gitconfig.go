package main

import (
	"bytes"
	"errors"
	"fmt"
	"os/exec"
	"strconv"
	"strings"

	"github.com/urfave/cli/v2"
)

// gitConfigKeys maps `rgit research` flags to the git config keys that
// give their defaults. git's own precedence applies (the repository's
// .git/config over ~/.gitconfig); a flag or its environment variable is
// over both.
var gitConfigKeys = []struct{ flag, key string }{
	{"model", "research.model"},
	{"review-model", "research.reviewModel"},
	{"breadth", "research.breadth"},
	{"depth", "research.depth"},
	{"jobs", "research.jobs"},
	{"merge-into", "research.mergeInto"},
	{"prices", "research.prices"},
}

// gitConfigHelp documents the keys in `rgit research --help`.
const gitConfigHelp = "Defaults from git config (the repository's over your global ~/.gitconfig; flags and\n" +
	"their environment variables over both): research.model, research.reviewModel,\n" +
	"research.breadth, research.depth, research.jobs, research.mergeInto. For example:\n" +
	"  git config research.model claude:claude-opus-4-6\n" +
	"  git config --global research.breadth 2"

// gitConfigDefault is a git config value as git resolves it in the working
// directory: ok is false when the key is unset or git is missing. Keys are
// matched case-insensitively, as git does.
func gitConfigDefault(key string) (value string, ok bool, err error) {
	cmd := exec.Command("git", "config", "--get", key)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee) && ee.ExitCode() == 1: // unset
		return "", false, nil
	case errors.Is(err, exec.ErrNotFound):
		return "", false, nil
	case err != nil:
		return "", false, fmt.Errorf("read git config %s: %s", key, strings.TrimSpace(stderr.String()))
	}
	return strings.TrimSpace(string(out)), true, nil
}

// applyGitConfig sets every research flag the user left unset from git
// config, checking values as the flags would be checked. A flag that does
// not exist on the command (research.jobs before --jobs) is skipped.
func applyGitConfig(c *cli.Context) error {
	defined := map[string]cli.Flag{}
	for _, f := range c.Command.Flags {
		for _, n := range f.Names() {
			defined[n] = f
		}
	}
	for _, k := range gitConfigKeys {
		f, ok := defined[k.flag]
		if !ok || (c.IsSet(k.flag) && c.String(k.flag) != "") {
			continue
		}
		v, ok, err := gitConfigDefault(k.key)
		if err != nil {
			return err
		}
		if !ok || v == "" {
			continue
		}
		if _, isInt := f.(*cli.IntFlag); isInt {
			if _, err := strconv.Atoi(v); err != nil {
				return usagef(fmt.Sprintf("fix it with: git config %s N", k.key), "invalid %s %q in git config: want a whole number", k.key, v)
			}
		}
		if err := c.Set(k.flag, v); err != nil {
			return usagef(fmt.Sprintf("fix it with: git config %s VALUE", k.key), "invalid %s %q in git config: %v", k.key, v, err)
		}
	}
	return nil
}
