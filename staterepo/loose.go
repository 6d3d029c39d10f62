package staterepo

import (
	"compress/zlib"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"sync"

	"github.com/go-git/go-git/v5/plumbing"
)

// storeLoose writes obj as a loose object, compressed as git compresses
// loose objects by default (core.looseCompression: zlib's best speed).
// go-git compresses at zlib's default level, several times slower for the
// trees of thousands of entries that a promote rewrites. Objects are named
// by their content: one that exists already is left alone, and writers that
// race write the same bytes.
func (r *Repo) storeLoose(obj plumbing.EncodedObject) (plumbing.Hash, error) {
	h := obj.Hash()
	hex := h.String()
	dir := filepath.Join(r.Path, "objects", hex[:2])
	file := filepath.Join(dir, hex[2:])
	if _, err := os.Stat(file); err == nil {
		return h, nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return plumbing.ZeroHash, fmt.Errorf("failed to write object %s: %w", hex, err)
	}
	tmp, err := os.CreateTemp(dir, "tmp_obj_")
	if err != nil {
		return plumbing.ZeroHash, fmt.Errorf("failed to write object %s: %w", hex, err)
	}
	defer os.Remove(tmp.Name()) // after the rename, there is nothing left to remove
	if err := writeObject(tmp, obj); err != nil {
		_ = tmp.Close()
		return plumbing.ZeroHash, fmt.Errorf("failed to write object %s: %w", hex, err)
	}
	if err := tmp.Close(); err != nil {
		return plumbing.ZeroHash, fmt.Errorf("failed to write object %s: %w", hex, err)
	}
	if err := os.Chmod(tmp.Name(), 0o444); err != nil {
		return plumbing.ZeroHash, fmt.Errorf("failed to write object %s: %w", hex, err)
	}
	if err := os.Rename(tmp.Name(), file); err != nil {
		return plumbing.ZeroHash, fmt.Errorf("failed to write object %s: %w", hex, err)
	}
	return h, nil
}

// zlibWriters are reused: a compressor's state is far larger than most
// objects planq writes.
var zlibWriters = sync.Pool{New: func() any {
	zw, _ := zlib.NewWriterLevel(io.Discard, zlib.BestSpeed) // a valid level never fails
	return zw
}}

func writeObject(w io.Writer, obj plumbing.EncodedObject) error {
	zw := zlibWriters.Get().(*zlib.Writer)
	defer zlibWriters.Put(zw)
	zw.Reset(w)
	header := obj.Type().String() + " " + strconv.FormatInt(obj.Size(), 10) + "\x00"
	if _, err := io.WriteString(zw, header); err != nil {
		return err
	}
	rd, err := obj.Reader()
	if err != nil {
		return err
	}
	defer rd.Close()
	if _, err := io.Copy(zw, rd); err != nil {
		return err
	}
	return zw.Close()
}
