package platform

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/planq-dev/planq/planqerr"
)

func TestUnsupportedSaysWhatAndWhere(t *testing.T) {
	err := unsupportedOn("windows", "editor", "pipe the new text in: planq edit ID < record.md")
	if got, want := err.Error(), "editor: not supported on windows"; got != want {
		t.Errorf("message %q, want %q", got, want)
	}
	if got, want := err.Hint, "pipe the new text in: planq edit ID < record.md"; got != want {
		t.Errorf("hint %q, want %q", got, want)
	}
	if planqerr.KindOf(err) != planqerr.Failure {
		t.Errorf("kind %v, want Failure (exit 1)", planqerr.KindOf(err))
	}
	// A hint is text, not a format: a % in it stays as it is.
	if got := unsupportedOn("windows", "x", "100% sure").Hint; got != "100% sure" {
		t.Errorf("hint %q, want it verbatim", got)
	}
	if got, want := Unsupported("tmux", "h").Error(), "tmux: not supported on "+runtime.GOOS; got != want {
		t.Errorf("message %q, want %q", got, want)
	}
}

// Git for Windows keeps git.exe in cmd\, bin\ and mingw64\bin\, and sh.exe
// in bin\ and usr\bin\ of the same installation.
func TestShellBesideGit(t *testing.T) {
	for _, tc := range []struct {
		name string
		git  string   // where git is, under the installation
		have []string // the files the installation holds
		want string   // the shell found, "" for none
	}{
		{"cmd, bin", "cmd/git.exe", []string{"cmd/git.exe", "bin/sh.exe", "usr/bin/sh.exe"}, "bin/sh.exe"},
		{"cmd, only usr/bin", "cmd/git.exe", []string{"cmd/git.exe", "usr/bin/sh.exe"}, "usr/bin/sh.exe"},
		{"bin", "bin/git.exe", []string{"bin/git.exe", "bin/sh.exe"}, "bin/sh.exe"},
		{"mingw64/bin", "mingw64/bin/git.exe", []string{"mingw64/bin/git.exe", "usr/bin/sh.exe"}, "usr/bin/sh.exe"},
		{"no shell", "cmd/git.exe", []string{"cmd/git.exe", "bin/bash.exe"}, ""},
		{"a directory named sh.exe", "cmd/git.exe", []string{"cmd/git.exe", "bin/sh.exe/"}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := filepath.Join(t.TempDir(), "Git")
			for _, f := range tc.have {
				p := filepath.Join(root, filepath.FromSlash(f))
				if f[len(f)-1] == '/' {
					if err := os.MkdirAll(p, 0o755); err != nil {
						t.Fatal(err)
					}
					continue
				}
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, []byte("MZ"), 0o755); err != nil {
					t.Fatal(err)
				}
			}
			want := ""
			if tc.want != "" {
				want = filepath.Join(root, filepath.FromSlash(tc.want))
			}
			if got := shellBesideGit(filepath.Join(root, filepath.FromSlash(tc.git))); got != want {
				t.Errorf("found %q, want %q", got, want)
			}
		})
	}
}

func TestShellOnUnixIsSh(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("Windows finds its shell; TestShellBesideGit covers how")
	}
	sh, err := Shell("editor", "h")
	if err != nil || sh != "sh" {
		t.Fatalf("Shell() = %q, %v; want sh", sh, err)
	}
}
