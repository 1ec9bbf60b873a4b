package gitstore

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/go-git/go-billy/v5"
	"github.com/go-git/go-billy/v5/osfs"
	gogit "github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/config"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/cache"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/storage/filesystem"
	"github.com/go-git/go-git/v5/storage/filesystem/dotgit"
	"github.com/klauspost/compress/zlib"
)

// Store is one open repository. A Store is safe for use by one goroutine;
// separate Stores, in one process or many, may write to one repository at the
// same time.
type Store struct {
	st        *filesystem.Storage // go-git's object storage; never used for refs, index or worktree
	root      string              // worktree root
	gitDir    string              // this worktree's git dir (differs from commonDir in linked worktrees)
	commonDir string
	stat      statCache
	statDirs  map[string]bool                      // mount dirs whose saved stat cache was loaded
	have      map[plumbing.Hash]bool               // objects known to be stored, to skip existence checks
	packs     packSet                              // pack indexes, for existence checks without go-git
	trees     map[plumbing.Hash][]object.TreeEntry // decoded trees, written or read
	commits   map[plumbing.Hash]plumbing.Hash      // commit -> root tree
	dirTrees  map[string]dirTree                   // mount directory -> the tree last written for it
	zbuf      bytes.Buffer                         // compressed object being written
	zw        *zlib.Writer                         // reused: a new one allocates ~600 KB
	tbuf      []byte                               // reused: the tree being written (treeenc.go)
	tmpSeq    int                                  // makes temporary object names unique
	ident     *[2]string                           // name and email from git config, read once
	lockFile  billy.File                           // the repository lock file, kept open
	notify    func(msg string)                     // told about repairs (see Notify)
}

// Open finds the repository that contains dir (dir itself or any parent),
// linked worktrees included. It returns ErrNotRepository when there is none
// and ErrUnsupportedRepo for a format it cannot write (SHA-256, reftable, an
// unknown extension). Opening reads only: nothing is created or locked
// until a method writes.
func Open(dir string) (*Store, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("open repository %s: %w", dir, err)
	}
	root, gitDir, err := findRepo(abs)
	if err != nil {
		return nil, err
	}
	if _, err := os.Stat(filepath.Join(gitDir, "HEAD")); err != nil {
		return nil, fmt.Errorf("open repository %s: %w", root, ErrNotRepository)
	}
	common := commonDir(gitDir)
	// The storage is built here rather than with git.PlainOpen, whose
	// extension check refuses worktreeConfig (see checkFormat).
	var commonFS billy.Filesystem
	if common != gitDir {
		commonFS = osfs.New(common)
	}
	st := filesystem.NewStorage(dotgit.NewRepositoryFilesystem(osfs.New(gitDir), commonFS), cache.NewObjectLRUDefault())
	cfg, err := st.Config()
	if err != nil {
		return nil, fmt.Errorf("open repository %s: read config: %w", root, err)
	}
	if err := checkFormat(cfg); err != nil {
		return nil, fmt.Errorf("open repository %s: %w", root, err)
	}
	return &Store{
		st:        st,
		root:      root,
		gitDir:    gitDir,
		commonDir: common,
		stat:      statCache{},
		statDirs:  map[string]bool{},
		have:      map[plumbing.Hash]bool{},
		trees:     map[plumbing.Hash][]object.TreeEntry{},
		dirTrees:  map[string]dirTree{},
		commits:   map[plumbing.Hash]plumbing.Hash{},
	}, nil
}

// OpenOrInit opens the repository containing dir, or initialises one in dir
// on the user's init.defaultBranch (global git config; "main" when unset).
// created reports whether a repository was initialised.
func OpenOrInit(dir string) (s *Store, created bool, err error) {
	s, err = Open(dir)
	if !errors.Is(err, ErrNotRepository) {
		return s, false, err
	}
	branch := "main"
	if cfg, cerr := config.LoadConfig(config.GlobalScope); cerr == nil && cfg.Init.DefaultBranch != "" {
		branch = cfg.Init.DefaultBranch
	}
	_, err = gogit.PlainInitWithOptions(dir, &gogit.PlainInitOptions{
		InitOptions: gogit.InitOptions{DefaultBranch: plumbing.NewBranchReferenceName(branch)},
	})
	if err != nil {
		return nil, false, fmt.Errorf("init repository %s: %w", dir, err)
	}
	s, err = Open(dir)
	return s, err == nil, err
}

// Root returns the absolute path of the worktree root.
func (s *Store) Root() string { return s.root }

// Notify sets the function told, in one line each, about what the Store
// repaired on its own: a stale ref lock a killed run left. nil (the
// default) discards the messages; the Store never prints.
func (s *Store) Notify(fn func(msg string)) { s.notify = fn }

// note tells the Notify function, if any.
func (s *Store) note(msg string) {
	if s.notify != nil {
		s.notify(msg)
	}
}

// CommonDir returns the absolute path of the common git dir, the one shared by
// all linked worktrees (".git" of the main worktree).
func (s *Store) CommonDir() string { return s.commonDir }

// Close saves the stat cache for the next run and releases the Store. It is
// safe to call more than once.
func (s *Store) Close() error {
	if s.statDirs != nil {
		s.saveStatCaches()
	}
	if s.lockFile != nil {
		s.lockFile.Close()
		s.lockFile = nil
	}
	s.st = nil
	s.stat = nil
	s.statDirs = nil
	s.have = nil
	return nil
}

// findRepo walks up from dir to the first directory holding a .git entry: a
// directory, or a file "gitdir: <path>" as linked worktrees have.
func findRepo(dir string) (root, gitDir string, err error) {
	for d := dir; ; d = filepath.Dir(d) {
		dotgit := filepath.Join(d, ".git")
		fi, err := os.Stat(dotgit)
		switch {
		case err == nil && fi.IsDir():
			return d, dotgit, nil
		case err == nil:
			b, rerr := os.ReadFile(dotgit)
			if rerr != nil {
				return "", "", fmt.Errorf("read %s: %w", dotgit, rerr)
			}
			line := strings.TrimSpace(string(b))
			target, ok := strings.CutPrefix(line, "gitdir: ")
			if !ok {
				return "", "", fmt.Errorf("read %s: no gitdir line: %w", dotgit, ErrNotRepository)
			}
			if !filepath.IsAbs(target) {
				target = filepath.Join(d, target)
			}
			return d, filepath.Clean(target), nil
		}
		if parent := filepath.Dir(d); parent == d {
			return "", "", fmt.Errorf("open repository %s: %w", dir, ErrNotRepository)
		}
	}
}

// commonDir returns the dir named by gitDir/commondir, or gitDir itself.
func commonDir(gitDir string) string {
	b, err := os.ReadFile(filepath.Join(gitDir, "commondir"))
	if err != nil {
		return gitDir
	}
	c := strings.TrimSpace(string(b))
	if !filepath.IsAbs(c) {
		c = filepath.Join(gitDir, c)
	}
	return filepath.Clean(c)
}
