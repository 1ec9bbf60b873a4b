package index

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// cacheMagic names the format; a change of layout or of tokenization must
// change it, so old caches are rebuilt rather than misread.
const cacheMagic = "RGITIDXB"

// cachePath is the cache file for a set of roots and exclusions.
func cachePath(dir string, roots []Root, exclude []string) string {
	h := sha256.New()
	for _, r := range roots {
		fmt.Fprintf(h, "root %s\n", r.Dir)
	}
	for _, e := range exclude {
		fmt.Fprintf(h, "exclude %s\n", e)
	}
	return filepath.Join(dir, hex.EncodeToString(h.Sum(nil)[:12])+".idx")
}

// save writes ix to file atomically (a temporary file renamed into place),
// so a reader never sees half a cache.
func save(file string, ix *Index) error {
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		return fmt.Errorf("create cache dir: %w", err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(file), ".idx-*")
	if err != nil {
		return fmt.Errorf("create cache: %w", err)
	}
	defer os.Remove(tmp.Name())
	w := bufio.NewWriterSize(tmp, 1<<20)
	e := &enc{w: w}
	e.bytes([]byte(cacheMagic))
	e.uint(uint64(len(ix.Roots)))
	for _, r := range ix.Roots {
		e.str(r.Dir)
		e.str(r.Label)
	}
	e.uint(uint64(len(ix.Files)))
	for _, f := range ix.Files {
		e.uint(uint64(f.Root))
		e.str(f.Rel)
		e.uint(uint64(f.Size))
		e.uint(uint64(f.ModTime))
		e.bytes(f.Hash[:])
		e.uint(uint64(f.First))
		e.uint(uint64(f.Count))
		e.uint(boolUint(f.Gen))
	}
	e.uint(ix.totalLen)
	for _, a := range [][]uint32{ix.pFile, ix.pStart, ix.pEnd, ix.pLen, ix.labelOff, ix.termOff, ix.df} {
		e.u32s(a)
	}
	e.u64s(ix.postOff)
	for _, blob := range [][]byte{ix.labelBlob, ix.termBlob, ix.postBlob} {
		e.uint(uint64(len(blob)))
		e.bytes(blob)
	}
	if e.err == nil {
		e.err = w.Flush()
	}
	if e.err == nil {
		e.err = tmp.Close()
	} else {
		tmp.Close()
	}
	if e.err != nil {
		return fmt.Errorf("write cache: %w", e.err)
	}
	if err := os.Rename(tmp.Name(), file); err != nil {
		return fmt.Errorf("install cache: %w", err)
	}
	return nil
}

// load reads a cache file written by save.
func load(file string) (*Index, error) {
	data, err := readHuge(file)
	if err != nil {
		return nil, err
	}
	d := &dec{b: data, size: len(data)}
	if string(d.take(len(cacheMagic))) != cacheMagic {
		return nil, errors.New("read cache: unknown format")
	}
	ix := &Index{}
	ix.Roots = make([]Root, d.count(2))
	for i := range ix.Roots {
		ix.Roots[i] = Root{Dir: d.str(), Label: d.str()}
	}
	ix.Files = make([]File, d.count(8))
	for i := range ix.Files {
		f := &ix.Files[i]
		f.Root = int(d.uint())
		f.Rel = d.str()
		f.Size = int64(d.uint())
		f.ModTime = int64(d.uint())
		copy(f.Hash[:], d.take(16))
		f.First = uint32(d.uint())
		f.Count = uint32(d.uint())
		f.Gen = d.uint() == 1
		if f.Root >= len(ix.Roots) {
			d.err = errors.New("bad root")
		}
	}
	ix.totalLen = d.uint()
	for _, a := range []*[]uint32{&ix.pFile, &ix.pStart, &ix.pEnd, &ix.pLen, &ix.labelOff, &ix.termOff, &ix.df} {
		*a = d.u32s()
	}
	ix.postOff = d.u64s()
	for _, blob := range []*[]byte{&ix.labelBlob, &ix.termBlob, &ix.postBlob} {
		*blob = d.take(d.count(1))
	}
	if d.err != nil {
		return nil, fmt.Errorf("read cache %s: %w", file, d.err)
	}
	if err := ix.check(); err != nil {
		return nil, fmt.Errorf("read cache %s: %w", file, err)
	}
	ix.setWeights()
	return ix, nil
}

// check verifies the array lengths and offsets agree, so a damaged cache
// fails here instead of panicking in a search.
func (ix *Index) check() error {
	n, t := len(ix.pFile), len(ix.df)
	ok := len(ix.pStart) == n && len(ix.pEnd) == n && len(ix.pLen) == n &&
		len(ix.labelOff) == n+1 && len(ix.termOff) == t+1 && len(ix.postOff) == t+1 &&
		ix.labelOff[n] == uint32(len(ix.labelBlob)) && ix.termOff[t] == uint32(len(ix.termBlob)) &&
		ix.postOff[t] == uint64(len(ix.postBlob))
	for i := 0; ok && i < n; i++ {
		ok = int(ix.pFile[i]) < len(ix.Files) && ix.labelOff[i] <= ix.labelOff[i+1]
	}
	for i := 0; ok && i < t; i++ {
		ok = ix.termOff[i] <= ix.termOff[i+1] && ix.postOff[i] <= ix.postOff[i+1]
	}
	for _, f := range ix.Files {
		ok = ok && uint64(f.First)+uint64(f.Count) <= uint64(n)
	}
	if !ok {
		return errors.New("inconsistent index")
	}
	return nil
}

func boolUint(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}

// readHuge is os.ReadFile into memory backed by huge pages (see makeHuge):
// a warm open reads the whole cache, tens of megabytes.
func readHuge(file string) ([]byte, error) {
	f, err := os.Open(file)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	data := makeHuge[byte](int(st.Size()), int(st.Size()))
	if _, err := io.ReadFull(f, data); err != nil {
		return nil, fmt.Errorf("read cache: %w", err)
	}
	return data, nil
}
