package untrusted

import (
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

func write(t *testing.T, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// realOf is path with its links resolved, as messages name a link's target
// (a temporary directory is behind one on macOS).
func realOf(t *testing.T, path string) string {
	t.Helper()
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		t.Fatal(err)
	}
	return real
}

func symlink(t *testing.T, target, link string) {
	t.Helper()
	if err := os.Symlink(target, link); err != nil {
		t.Skipf("no symbolic links here: %v", err)
	}
}

// refused calls ReadFile with a deadline, so that a file that blocks or
// never ends fails the test instead of hanging it, and returns its error.
func refused(t *testing.T, dir, name string, max int64) error {
	t.Helper()
	type result struct {
		data []byte
		err  error
	}
	done := make(chan result, 1)
	go func() {
		data, err := ReadFile(dir, name, max)
		done <- result{data, err}
	}()
	select {
	case r := <-done:
		if r.err == nil {
			t.Fatalf("%s was read (%d bytes)", name, len(r.data))
		}
		return r.err
	case <-time.After(5 * time.Second):
		t.Fatalf("reading %s did not return", name)
	}
	return nil
}

func wantReason(t *testing.T, err error, reason Reason, why string) {
	t.Helper()
	if ReasonOf(err) != reason || !strings.Contains(Why(err), why) {
		t.Fatalf("got %v (reason %d), want reason %d saying %q", err, ReasonOf(err), reason, why)
	}
}

func TestAFIFOIsRefusedWithoutBlocking(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no FIFOs")
	}
	dir := t.TempDir()
	fifo := filepath.Join(dir, "0001-x.md")
	if out, err := exec.Command("mkfifo", fifo).CombinedOutput(); err != nil {
		t.Skipf("mkfifo: %v %s", err, out)
	}
	wantReason(t, refused(t, dir, fifo, 1<<20), NotRegular, "a FIFO, not a regular file")
	// Through a link inside the directory, the same.
	symlink(t, "0001-x.md", filepath.Join(dir, "link.md"))
	wantReason(t, refused(t, dir, filepath.Join(dir, "link.md"), 1<<20), NotRegular, "a FIFO")
}

func TestALinkToDevZeroIsRefused(t *testing.T) {
	if _, err := os.Stat("/dev/zero"); err != nil {
		t.Skip("no /dev/zero")
	}
	dir := t.TempDir()
	symlink(t, "/dev/zero", filepath.Join(dir, "z.jsonl"))
	wantReason(t, refused(t, dir, filepath.Join(dir, "z.jsonl"), 1<<30), Outside, "a symbolic link to /dev/zero, outside "+dir)
	// Even when the directory holds /dev: the device is no regular file.
	wantReason(t, refused(t, "/dev", "/dev/zero", 1<<30), NotRegular, "a character device")
}

func TestALinkOutOfTheDirectoryIsRefused(t *testing.T) {
	outer := t.TempDir()
	write(t, filepath.Join(outer, "passwd"), "root:x:0:0:root:/root:/bin/sh\n")
	dir := filepath.Join(outer, "memory")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	symlink(t, "../passwd", filepath.Join(dir, "passwd.md"))
	err := refused(t, dir, filepath.Join(dir, "passwd.md"), 1<<20)
	wantReason(t, err, Outside, "a symbolic link to "+realOf(t, filepath.Join(outer, "passwd"))+", outside "+dir+": not read")
	// A directory on the way that leads out counts the same.
	symlink(t, outer, filepath.Join(dir, "up"))
	wantReason(t, refused(t, dir, filepath.Join(dir, "up", "passwd"), 1<<20), Outside, "through a symbolic link")
	// And a path that is outside to begin with.
	wantReason(t, refused(t, dir, filepath.Join(dir, "..", "passwd"), 1<<20), Outside, "outside")
}

func TestALinkInsideTheDirectoryToARegularFileIsRead(t *testing.T) {
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "adr"), 0o755); err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(dir, "adr", "real.md"), "# Use SQLite\n")
	symlink(t, "adr/real.md", filepath.Join(dir, "link.md"))
	data, err := ReadFile(dir, filepath.Join(dir, "link.md"), 1<<20)
	if err != nil || string(data) != "# Use SQLite\n" {
		t.Fatalf("got %q, %v", data, err)
	}
	// The directory itself may be reached through a link.
	alias := filepath.Join(t.TempDir(), "alias")
	symlink(t, dir, alias)
	if data, err := ReadFile(alias, filepath.Join(alias, "link.md"), 1<<20); err != nil || string(data) != "# Use SQLite\n" {
		t.Fatalf("through the directory's link: %q, %v", data, err)
	}
}

func TestAFileOverTheCapIsRefused(t *testing.T) {
	dir := t.TempDir()
	big := filepath.Join(dir, "big.md")
	write(t, big, strings.Repeat("x", 2048))
	wantReason(t, refused(t, dir, big, 1024), TooLarge, "larger than 1 KiB: not read")
	if data, err := ReadFile(dir, big, 2048); err != nil || len(data) != 2048 {
		t.Fatalf("at the cap: %d bytes, %v", len(data), err)
	}
}

func TestAFileThatGrowsPastTheCapStopsThere(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "t.jsonl")
	write(t, name, "12345")
	f, err := Open(dir, name, 8)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	write(t, name, "123456789012")
	_, err = io.ReadAll(f)
	wantReason(t, err, TooLarge, "larger than 8 bytes")
}

func TestADirectoryIsRefused(t *testing.T) {
	dir := t.TempDir()
	sub := filepath.Join(dir, "x.jsonl")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	wantReason(t, refused(t, dir, sub, 1<<20), NotRegular, "a directory, not a regular file")
}

func TestAMissingFileIsNotARefusal(t *testing.T) {
	dir := t.TempDir()
	_, err := ReadFile(dir, filepath.Join(dir, "gone.md"), 1<<20)
	if !errors.Is(err, os.ErrNotExist) || ReasonOf(err) != 0 {
		t.Fatalf("got %v", err)
	}
}
