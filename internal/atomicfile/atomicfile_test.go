package atomicfile

import (
	"bytes"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// writers are the two ways a file is replaced: WriteFile is what this
// platform uses; replaceByRename is what Windows uses, run here too so
// that its steps are tested wherever the tests run.
var writers = map[string]func(string, []byte, os.FileMode) error{
	"WriteFile":       WriteFile,
	"replaceByRename": replaceByRename,
}

func TestWriteCreatesAndReplaces(t *testing.T) {
	for name, write := range writers {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "config")
			if err := write(path, []byte("one\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			if err := write(path, []byte("two\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			got, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != "two\n" {
				t.Errorf("content = %q, want %q", got, "two\n")
			}
			assertOnly(t, dir, "config")
		})
	}
}

func TestWriteGivesANewFileItsMode(t *testing.T) {
	for name, write := range writers {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "hook")
			if err := write(path, []byte("#!/bin/sh\n"), 0o700); err != nil {
				t.Fatal(err)
			}
			info, err := os.Stat(path)
			if err != nil {
				t.Fatal(err)
			}
			if got := info.Mode().Perm(); got != 0o700 {
				t.Errorf("mode = %o, want 700", got)
			}
		})
	}
}

// A failed replace leaves the target as it was and no temporary file
// behind: here the target is a directory with a file in it, which no
// rename may replace.
func TestFailedReplaceLeavesNothingBehind(t *testing.T) {
	for name, write := range writers {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			target := filepath.Join(dir, "target")
			if err := os.MkdirAll(filepath.Join(target, "inside"), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := write(target, []byte("data"), 0o644); err == nil {
				t.Fatal("replacing a non-empty directory succeeded")
			}
			assertOnly(t, dir, "target")
			if _, err := os.Stat(filepath.Join(target, "inside")); err != nil {
				t.Errorf("the directory changed: %v", err)
			}
		})
	}
}

// A reader running beside the writer sees one whole version or the other,
// never a truncated or half-written file (os.WriteFile would show both).
func TestReaderNeverSeesAPartialFile(t *testing.T) {
	for name, write := range writers {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "notes")
			a := bytes.Repeat([]byte("a"), 256<<10)
			b := bytes.Repeat([]byte("b"), 256<<10)
			if err := write(path, a, 0o644); err != nil {
				t.Fatal(err)
			}
			var stop atomic.Bool
			var wg sync.WaitGroup
			wg.Add(1)
			go func() {
				defer wg.Done()
				defer stop.Store(true)
				for i := 0; i < 200; i++ {
					data := a
					if i%2 == 0 {
						data = b
					}
					if err := write(path, data, 0o644); err != nil {
						t.Error(err)
						return
					}
				}
			}()
			defer wg.Wait()
			reads := 0
			for !stop.Load() {
				got, err := os.ReadFile(path)
				if err != nil {
					t.Error(err)
					break
				}
				reads++
				if !bytes.Equal(got, a) && !bytes.Equal(got, b) {
					t.Errorf("read %d bytes that are neither version", len(got))
					break
				}
			}
			if reads == 0 {
				t.Error("the reader never read")
			}
		})
	}
}

func assertOnly(t *testing.T, dir string, names ...string) {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range entries {
		got = append(got, e.Name())
	}
	if len(got) != len(names) {
		t.Fatalf("directory holds %v, want only %v", got, names)
	}
	for i := range names {
		if got[i] != names[i] {
			t.Fatalf("directory holds %v, want only %v", got, names)
		}
	}
}

// A rename that fails for a moment (on Windows: another process holding
// the target open) succeeds on a later try; one that keeps failing gives up
// after the attempts allowed, with the rename's error.
func TestRenameRetrying(t *testing.T) {
	dir := t.TempDir()
	from, to := filepath.Join(dir, "new"), filepath.Join(dir, "target")
	if err := os.WriteFile(from, []byte("new"), 0o644); err != nil {
		t.Fatal(err)
	}
	// A non-empty directory at the target: no rename replaces it.
	if err := os.MkdirAll(filepath.Join(to, "held"), 0o755); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	if err := renameRetrying(from, to, 3, 5*time.Millisecond); err == nil {
		t.Fatal("a rename over a non-empty directory succeeded")
	}
	if waited := time.Since(start); waited < 15*time.Millisecond {
		t.Errorf("gave up after %s: fewer than 3 attempts (5ms, then 10ms between them)", waited)
	}

	// The holder lets go while the writer retries.
	released := make(chan error, 1)
	go func() {
		time.Sleep(20 * time.Millisecond)
		released <- os.RemoveAll(to)
	}()
	if err := renameRetrying(from, to, 10, 5*time.Millisecond); err != nil {
		t.Fatalf("the rename failed after the target was released: %v", err)
	}
	if err := <-released; err != nil {
		t.Fatal(err)
	}
	if got, err := os.ReadFile(to); err != nil || string(got) != "new" {
		t.Fatalf("target holds %q, %v; want the new file", got, err)
	}
}

func TestWriteIntoMissingDirectoryFails(t *testing.T) {
	for name, write := range writers {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "no", "such", "dir", "file")
			if err := write(path, []byte("x"), 0o644); err == nil {
				t.Fatal("writing into a directory that does not exist succeeded")
			}
		})
	}
}
