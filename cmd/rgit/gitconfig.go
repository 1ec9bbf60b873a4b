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

// gitConfigResearch is every research.* key as git resolves it in the
// working directory, by lowercase name (git matches names so); nothing
// when none is set or git is missing. Each key's last value wins, as
// with git config --get.
func gitConfigResearch() (map[string]string, error) {
	cmd := exec.Command("git", "config", "-z", "--get-regexp", `^research\.`)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee) && ee.ExitCode() == 1: // none set
		return nil, nil
	case errors.Is(err, exec.ErrNotFound):
		return nil, nil
	case err != nil:
		return nil, fmt.Errorf("read git config research.*: %s", strings.TrimSpace(stderr.String()))
	}
	values := map[string]string{}
	for _, entry := range strings.Split(string(out), "\x00") {
		if key, value, _ := strings.Cut(entry, "\n"); key != "" {
			values[strings.ToLower(key)] = strings.TrimSpace(value)
		}
	}
	return values, nil
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
	// One git call for every key: each is a process start, and --detach
	// pays for them twice before it can answer.
	values, err := gitConfigResearch()
	if err != nil {
		return err
	}
	for _, k := range gitConfigKeys {
		f, ok := defined[k.flag]
		if !ok || (c.IsSet(k.flag) && c.String(k.flag) != "") {
			continue
		}
		v := values[strings.ToLower(k.key)]
		if v == "" {
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
