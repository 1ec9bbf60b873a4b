//go:build !unix

package index

import "os"

// readInto reads the file abs; elsewhere than on Unix it is os.ReadFile.
func readInto(abs string, _ int64, _ []byte) ([]byte, error) {
	return os.ReadFile(abs)
}
