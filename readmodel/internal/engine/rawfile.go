//go:build unix

package engine

import (
	"errors"
	"fmt"
	"io/fs"
	"syscall"
)

// mapFile maps the file at path into memory, read-only. A command reads
// megabytes of segment rows at 50,000 records: mapped, they are the page
// cache's own pages, where a read would copy each into fresh memory. The
// file is opened with plain system calls: os.File would register it with
// the runtime's poller first, which a regular file has no use for.
func mapFile(path string) ([]byte, error) {
	fd, err := openRaw(path)
	if err != nil {
		return nil, err
	}
	defer func() { _ = syscall.Close(fd) }()
	var st syscall.Stat_t
	if err := syscall.Fstat(fd, &st); err != nil {
		return nil, fmt.Errorf("failed to stat %s: %w", path, err)
	}
	if st.Size == 0 {
		return nil, errDamaged // nothing to map; no segment is empty
	}
	data, err := syscall.Mmap(fd, 0, int(st.Size), syscall.PROT_READ, syscall.MAP_SHARED)
	if err != nil {
		return nil, &fs.PathError{Op: "mmap", Path: path, Err: err}
	}
	return data, nil
}

// unmap releases a mapping of mapFile.
func unmap(data []byte) { _ = syscall.Munmap(data) }

func openRaw(path string) (int, error) {
	for {
		fd, err := syscall.Open(path, syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
		if errors.Is(err, syscall.EINTR) {
			continue
		}
		if err != nil {
			return -1, &fs.PathError{Op: "open", Path: path, Err: err}
		}
		return fd, nil
	}
}
