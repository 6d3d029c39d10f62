//go:build unix

package untrusted

import (
	"os"
	"syscall"
)

// openNoWait opens name for reading without waiting: a FIFO with no
// writer would block a plain open forever. A link swapped in for the file
// since its path was resolved is not followed.
func openNoWait(name string) (*os.File, error) {
	return os.OpenFile(name, os.O_RDONLY|syscall.O_NONBLOCK|syscall.O_NOFOLLOW|syscall.O_NOCTTY, 0)
}

// waitOnRead makes reads of f, a regular file, wait as usual again.
func waitOnRead(f *os.File) error {
	rc, err := f.SyscallConn()
	if err != nil {
		return err
	}
	var serr error
	if err := rc.Control(func(fd uintptr) { serr = syscall.SetNonblock(int(fd), false) }); err != nil {
		return err
	}
	return serr
}
