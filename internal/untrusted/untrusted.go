package untrusted

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// Reason is why a file was not read.
type Reason int

// The reasons a file is not read.
const (
	// NotRegular is a FIFO, a device, a socket or a directory.
	NotRegular Reason = iota + 1
	// Outside is a file whose real path (links resolved) leaves the
	// directory it was looked for in.
	Outside
	// TooLarge is a file larger than the caller's cap, or one that grew
	// past it while it was read.
	TooLarge
)

// Error is a file that was not read, and why.
type Error struct {
	// Path is the file as the caller named it.
	Path   string
	Reason Reason
	// Why says why in words, without the path: a list of skipped files
	// names the file beside it.
	Why string
}

func (e *Error) Error() string { return e.Path + ": " + e.Why }

// ReasonOf is why err says a file was not read, 0 when err is no *Error
// (the file is missing, or reading it failed).
func ReasonOf(err error) Reason {
	var e *Error
	if errors.As(err, &e) {
		return e.Reason
	}
	return 0
}

// Why is what err says of a file, for a list that names the file beside
// it: an *Error's Why, else err's text.
func Why(err error) string {
	var e *Error
	if errors.As(err, &e) {
		return e.Why
	}
	return err.Error()
}

// File is a file Open found safe to read. Reading it past the cap Open was
// given fails with a TooLarge *Error: a file that grows while it is read
// stops there.
type File struct {
	f    *os.File
	name string
	info fs.FileInfo
	max  int64
	read int64
}

// Open opens name, a file planq did not write, looked for in dir, to read
// at most max bytes of it. It refuses (with an *Error) a file whose real
// path is outside dir's, one that is no regular file, and one larger than
// max; a missing file, or a link to nothing, is the error of os.Open.
func Open(dir, name string, max int64) (*File, error) {
	realDir, err := realPath(dir)
	if err != nil {
		return nil, err
	}
	abs, err := filepath.Abs(name)
	if err != nil {
		return nil, fmt.Errorf("failed to resolve %s: %w", name, err)
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return nil, err
	}
	if !inside(realDir, real) {
		why := fmt.Sprintf("outside %s (through a symbolic link, to %s): not read", dir, real)
		if info, err := os.Lstat(abs); err == nil && info.Mode()&fs.ModeSymlink != 0 {
			why = fmt.Sprintf("a symbolic link to %s, outside %s: not read", real, dir)
		}
		return nil, &Error{Path: name, Reason: Outside, Why: why}
	}
	f, err := openNoWait(real)
	if err != nil {
		return nil, err
	}
	info, err := f.Stat()
	if err != nil {
		_ = f.Close()
		return nil, fmt.Errorf("failed to read %s: %w", name, err)
	}
	if !info.Mode().IsRegular() {
		_ = f.Close()
		return nil, &Error{Path: name, Reason: NotRegular, Why: typeOf(info.Mode()) + ", not a regular file: not read"}
	}
	if err := waitOnRead(f); err != nil {
		_ = f.Close()
		return nil, fmt.Errorf("failed to read %s: %w", name, err)
	}
	out := &File{f: f, name: name, info: info, max: max}
	if info.Size() > max {
		_ = f.Close()
		return nil, out.tooLarge()
	}
	return out, nil
}

// ReadFile reads name, a file planq did not write, looked for in dir: the
// whole file, when Open takes it.
func ReadFile(dir, name string, max int64) ([]byte, error) {
	f, err := Open(dir, name, max)
	if err != nil {
		return nil, err
	}
	defer func() { _ = f.Close() }()
	var b bytes.Buffer
	b.Grow(int(f.info.Size()) + 1)
	if _, err := b.ReadFrom(f); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// Read reads the file, failing with a TooLarge *Error once there is more
// than the cap to read.
func (f *File) Read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	left := f.max - f.read
	if left <= 0 {
		var one [1]byte
		if n, err := f.f.Read(one[:]); n == 0 {
			return 0, err
		}
		return 0, f.tooLarge()
	}
	if int64(len(p)) > left {
		p = p[:left]
	}
	n, err := f.f.Read(p)
	f.read += int64(n)
	if err != nil && !errors.Is(err, io.EOF) {
		err = fmt.Errorf("failed to read %s: %w", f.name, err)
	}
	return n, err
}

// Stat is what the file was when it was opened.
func (f *File) Stat() fs.FileInfo { return f.info }

// Close closes the file.
func (f *File) Close() error { return f.f.Close() }

func (f *File) tooLarge() *Error {
	return &Error{Path: f.name, Reason: TooLarge, Why: "larger than " + Size(f.max) + ": not read"}
}

// Until reads r until ctx ends: a file of many MiB read line by line
// stops within one read of Ctrl-C.
func Until(ctx context.Context, r io.Reader) io.Reader { return ctxReader{ctx, r} }

type ctxReader struct {
	ctx context.Context
	r   io.Reader
}

func (c ctxReader) Read(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.r.Read(p)
}

// Size is n bytes in words: "1 MiB", "256 KiB", "100 bytes".
func Size(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}

func realPath(dir string) (string, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", fmt.Errorf("failed to resolve %s: %w", dir, err)
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return "", fmt.Errorf("failed to resolve %s: %w", dir, err)
	}
	return real, nil
}

// inside tells whether p is dir or under it; both are real paths.
func inside(dir, p string) bool {
	rel, err := filepath.Rel(dir, p)
	return err == nil && !filepath.IsAbs(rel) && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// typeOf names a file's type for a message.
func typeOf(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&fs.ModeNamedPipe != 0:
		return "a FIFO"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a device"
	case m&fs.ModeSymlink != 0:
		return "a symbolic link" // swapped in after the links were resolved
	}
	return "a special file"
}
