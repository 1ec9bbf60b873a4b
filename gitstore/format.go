package gitstore

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/go-git/go-git/v5/config"
	format "github.com/go-git/go-git/v5/plumbing/format/config"
)

// checkFormat refuses a repository whose format this package cannot write
// safely, the way git refuses one it does not understand. go-git's own check
// is not used: it refuses extensions.worktreeConfig (which `git
// sparse-checkout` turns on) because it compares lowercased names with a
// camel-cased list, and it cannot say which refusals are about SHA-256.
func checkFormat(cfg *config.Config) error {
	// go-git's parsed Core.RepositoryFormatVersion knows only "1".
	version := format.RepositoryFormatVersion(strings.TrimSpace(cfg.Raw.Section("core").Option("repositoryFormatVersion")))
	switch version {
	case "", format.Version_0, format.Version_1:
	default:
		return fmt.Errorf("%w: core.repositoryFormatVersion = %s (git's versions 0 and 1 are supported)", ErrUnsupportedRepo, version)
	}
	if !cfg.Raw.HasSection("extensions") {
		return nil
	}
	for _, o := range cfg.Raw.Section("extensions").Options {
		key, value := strings.ToLower(o.Key), strings.ToLower(strings.TrimSpace(o.Value))
		switch key {
		case "objectformat":
			if value != "sha1" {
				name := strings.ToUpper(value)
				if value == "sha256" {
					name = "SHA-256"
				}
				return fmt.Errorf("%w: the repository uses %s object names (extensions.objectFormat); rgit reads SHA-1 repositories only, until go-git supports %s",
					ErrUnsupportedRepo, name, name)
			}
		case "refstorage":
			if value != "files" {
				return fmt.Errorf("%w: the repository keeps its refs in %s (extensions.refStorage); rgit writes loose ref files only", ErrUnsupportedRepo, value)
			}
		case "compatobjectformat":
			return fmt.Errorf("%w: extensions.compatObjectFormat is set; rgit cannot keep the second object-name map", ErrUnsupportedRepo)
		case "worktreeconfig", "noop", "noop-v1", "preciousobjects", "partialclone":
			// worktreeConfig is honoured by worktreeOption; the others
			// do not change how objects and refs are written.
		default:
			// git ignores extensions it does not know in a version 0
			// repository and refuses them in version 1; so does rgit.
			if version == format.Version_1 {
				return fmt.Errorf("%w: unknown extension extensions.%s", ErrUnsupportedRepo, o.Key)
			}
		}
	}
	return nil
}

// worktreeConfig reports whether extensions.worktreeConfig is on: then
// settings that belong to one worktree (core.worktree, core.bare,
// core.sparseCheckout) live in <its git dir>/config.worktree.
func worktreeConfig(cfg *config.Config) bool {
	v := strings.ToLower(cfg.Raw.Section("extensions").Option("worktreeConfig"))
	return v == "true" || v == "yes" || v == "on" || v == "1"
}

// configOption returns a setting of the repository as git sees it from the
// worktree whose git dir is gitDir: from its config.worktree when
// extensions.worktreeConfig is on, else from the common config. "" when unset.
func (s *Store) configOption(gitDir, section, key string) string {
	cfg, err := s.st.Config()
	if err != nil {
		return ""
	}
	if worktreeConfig(cfg) {
		if b, err := os.ReadFile(filepath.Join(gitDir, "config.worktree")); err == nil {
			wt := format.New()
			if format.NewDecoder(strings.NewReader(string(b))).Decode(wt) == nil && wt.Section(section).HasOption(key) {
				return wt.Section(section).Option(key)
			}
		}
	}
	return cfg.Raw.Section(section).Option(key)
}

// IsShallow reports whether the repository is a shallow clone: its history
// stops at the commits listed in <common>/shallow, so a merge base may be
// missing. Merge refuses with ErrShallow there; callers that will merge
// should check first, before writing anything, and suggest
// `git fetch --unshallow`.
func (s *Store) IsShallow() (bool, error) {
	fi, err := os.Stat(filepath.Join(s.commonDir, "shallow"))
	if errors.Is(err, os.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("read shallow: %w", err)
	}
	return fi.Size() > 0, nil
}
