package platform

import (
	"errors"
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
	for _, goos := range []string{"linux", "darwin"} {
		if sh, err := shellOn(goos, "editor", "h"); err != nil || sh != "sh" {
			t.Errorf("%s: shell %q, %v; want sh", goos, sh, err)
		}
	}
}

// On Windows the shell is sh on PATH, else the one in git's installation,
// else there is none and the editor is not supported. The lookups are
// real: PATH names directories of the test's own.
func TestShellOnWindows(t *testing.T) {
	install := func(t *testing.T, files ...string) string {
		t.Helper()
		root := t.TempDir()
		for _, f := range files {
			p := filepath.Join(root, filepath.FromSlash(f))
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, []byte("#!/bin/true\n"), 0o755); err != nil {
				t.Fatal(err)
			}
		}
		return root
	}
	git := "git"
	if runtime.GOOS == "windows" {
		git = "git.exe"
	}

	t.Run("sh on PATH", func(t *testing.T) {
		root := install(t, "msys/sh", "msys/sh.exe")
		t.Setenv("PATH", filepath.Join(root, "msys"))
		sh, err := shellOn("windows", "editor", "h")
		if err != nil || filepath.Dir(sh) != filepath.Join(root, "msys") {
			t.Fatalf("shell %q, %v; want the sh on PATH", sh, err)
		}
	})
	t.Run("sh in git's installation", func(t *testing.T) {
		root := install(t, "Git/cmd/"+git, "Git/bin/sh.exe")
		t.Setenv("PATH", filepath.Join(root, "Git", "cmd"))
		sh, err := shellOn("windows", "editor", "h")
		if want := filepath.Join(root, "Git", "bin", "sh.exe"); err != nil || sh != want {
			t.Fatalf("shell %q, %v; want %q", sh, err, want)
		}
	})
	t.Run("none", func(t *testing.T) {
		root := install(t, "Git/cmd/"+git)
		t.Setenv("PATH", filepath.Join(root, "Git", "cmd"))
		sh, err := shellOn("windows", "editor", "pipe the text in")
		var pe *planqerr.Error
		if sh != "" || !errors.As(err, &pe) || err.Error() != "editor: not supported on windows" || pe.Hint != "pipe the text in" {
			t.Fatalf("shell %q, %v; want editor: not supported on windows, with the hint", sh, err)
		}
	})
}
