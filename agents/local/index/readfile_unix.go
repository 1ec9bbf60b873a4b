//go:build unix

package index

import "syscall"

// readInto reads the file abs into buf (grown if the file is larger than
// size) and returns its content. A cold build opens some ten thousand
// files: going straight to open, read and close saves os.Open's
// registration with the poller (an fcntl and a failing epoll_ctl each),
// and reusing buf saves faulting in fresh memory for every file, which
// on a virtual machine costs as much as the read itself.
func readInto(abs string, size int64, buf []byte) ([]byte, error) {
	fd, err := syscall.Open(abs, syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
	if err != nil {
		return buf[:0], err
	}
	defer syscall.Close(fd)
	if want := int(size) + 1; cap(buf) < want { // +1 sees the end without another call when the size held
		buf = make([]byte, 0, max(want, 2*cap(buf)))
	}
	buf = buf[:0]
	for {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		room := cap(buf) - len(buf)
		n, err := syscall.Read(fd, buf[len(buf):cap(buf)])
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return buf, err
		}
		if n == 0 {
			return buf, nil
		}
		buf = buf[:len(buf)+n]
		// A short read that ends at the size stat gave is the end of a
		// regular file: the read that would return 0 is saved.
		if n < room && int64(len(buf)) == size {
			return buf, nil
		}
	}
}
