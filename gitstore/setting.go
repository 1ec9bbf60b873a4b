package gitstore

import "github.com/go-git/go-git/v5/config"

// Setting is a git config value as git reads it: the repository's own
// config (or its worktree's), else the user's global config; "" when
// unset. Keys are case-insensitive, as in git.
func (s *Store) Setting(section, key string) string {
	if v := s.configOption(s.gitDir, section, key); v != "" {
		return v
	}
	if cfg, err := config.LoadConfig(config.GlobalScope); err == nil {
		return cfg.Raw.Section(section).Option(key)
	}
	return ""
}
