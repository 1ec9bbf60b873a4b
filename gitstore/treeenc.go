package gitstore

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// A session's sources/ tree gains entries with every research phase (400
// after 160 phases) and is rewritten each time. go-git's Tree.Encode
// formats every entry with fmt.Fprintf, checks the order again with a
// comparison that allocates for directories, and the encoded object was
// then copied once more to be stored: work in proportion to the session
// on every commit. encodeTree appends the same bytes into a reused buffer.

// encodeTree sorts entries the way git does (a directory's name compares
// as if it ended in "/") and appends the tree object's content to b.
func encodeTree(b []byte, entries []object.TreeEntry) ([]byte, error) {
	slices.SortFunc(entries, compareEntries)
	for _, e := range entries {
		if strings.IndexByte(e.Name, 0) >= 0 {
			return b, fmt.Errorf("encode tree: malformed file name %q", e.Name)
		}
		b = strconv.AppendUint(b, uint64(e.Mode), 8)
		b = append(b, ' ')
		b = append(b, e.Name...)
		b = append(b, 0)
		b = append(b, e.Hash[:]...)
	}
	return b, nil
}

// compareEntries orders tree entries as git does, without building the
// "name/" strings of directories.
func compareEntries(a, b object.TreeEntry) int {
	n := min(len(a.Name), len(b.Name))
	if c := strings.Compare(a.Name[:n], b.Name[:n]); c != 0 {
		return c
	}
	return sortByteAt(a, n) - sortByteAt(b, n)
}

// sortByteAt is the byte at i of the entry's sort name: its name, then
// "/" for a directory; -1 past the end.
func sortByteAt(e object.TreeEntry, i int) int {
	switch {
	case i < len(e.Name):
		return int(e.Name[i])
	case i == len(e.Name) && e.Mode == filemode.Dir:
		return '/'
	}
	return -1
}
