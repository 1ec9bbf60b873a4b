package gitstore

import (
	"bytes"
	"fmt"
	"io"
	"math/rand/v2"
	"slices"
	"sort"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// TestEncodeTreeMatchesGoGit: encodeTree writes go-git's (and git's) tree
// bytes in git's order, where a directory sorts as if its name ended in
// "/" ("foo.c" < "foo" dir < "foo0"), so commits keep their hashes.
func TestEncodeTreeMatchesGoGit(t *testing.T) {
	modes := []filemode.FileMode{filemode.Regular, filemode.Executable, filemode.Symlink, filemode.Dir, filemode.Submodule}
	names := []string{"foo", "foo.c", "foo0", "foo-", "fo", "fooo", "a", "A", "é", "z\xff", "sources", "sources.md", "sources0", "b b"}
	cases := map[string][]object.TreeEntry{
		"empty": nil,
		"dir between": {
			{Name: "foo0", Mode: filemode.Regular}, {Name: "foo", Mode: filemode.Dir}, {Name: "foo.c", Mode: filemode.Regular},
		},
		"file and dir prefixes": {
			{Name: "a", Mode: filemode.Dir}, {Name: "a.", Mode: filemode.Regular}, {Name: "a0", Mode: filemode.Dir}, {Name: "ab", Mode: filemode.Executable},
		},
	}
	r := rand.New(rand.NewPCG(3, 4))
	for i := range 50 {
		var es []object.TreeEntry
		seen := map[string]bool{}
		for range r.IntN(30) {
			n := names[r.IntN(len(names))] + fmt.Sprint(r.IntN(3))[:r.IntN(2)]
			if seen[n] {
				continue
			}
			seen[n] = true
			var h plumbing.Hash
			for j := range h {
				h[j] = byte(r.IntN(256))
			}
			es = append(es, object.TreeEntry{Name: n, Mode: modes[r.IntN(len(modes))], Hash: h})
		}
		cases[fmt.Sprintf("random %d", i)] = es
	}
	for name, es := range cases {
		want := slices.Clone(es)
		sort.Sort(object.TreeEntrySorter(want))
		o := &plumbing.MemoryObject{}
		if err := (&object.Tree{Entries: want}).Encode(o); err != nil {
			t.Fatal(err)
		}
		rd, _ := o.Reader()
		wantBytes, _ := io.ReadAll(rd)
		got, err := encodeTree(nil, slices.Clone(es))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if !bytes.Equal(got, wantBytes) {
			t.Errorf("%s: tree bytes differ from go-git's\n got %q\nwant %q", name, got, wantBytes)
		}
	}
	if _, err := encodeTree(nil, []object.TreeEntry{{Name: "a\x00b", Mode: filemode.Regular}}); err == nil {
		t.Error("a name with NUL was encoded")
	}
}
