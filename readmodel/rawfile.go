package readmodel

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"syscall"
)

// rawFile reads a file through plain system calls. A command reads a few
// hundred segment files; os.File would register each with the runtime's
// poller first (more system calls than the reads themselves), which a
// regular file, never blocking, has no use for.
type rawFile struct{ fd int }

func openRaw(path string) (rawFile, error) {
	for {
		fd, err := syscall.Open(path, syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
		if errors.Is(err, syscall.EINTR) {
			continue
		}
		if err != nil {
			return rawFile{}, &fs.PathError{Op: "open", Path: path, Err: err}
		}
		return rawFile{fd: fd}, nil
	}
}

func (f rawFile) close() { _ = syscall.Close(f.fd) }

func (f rawFile) size() (int64, error) {
	var st syscall.Stat_t
	if err := syscall.Fstat(f.fd, &st); err != nil {
		return 0, fmt.Errorf("failed to stat segment: %w", err)
	}
	return st.Size, nil
}

// readAt fills b from offset off; a file too short is io.ErrUnexpectedEOF.
func (f rawFile) readAt(b []byte, off int64) error {
	for len(b) > 0 {
		n, err := syscall.Pread(f.fd, b, off)
		if errors.Is(err, syscall.EINTR) {
			continue
		}
		if err != nil {
			return err
		}
		if n == 0 {
			return io.ErrUnexpectedEOF
		}
		b, off = b[n:], off+int64(n)
	}
	return nil
}
