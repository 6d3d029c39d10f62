package staterepo

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/planq-dev/planq/internal/testkit/testgit"
)

// TestFilesAreTheFilesGitSees: tracked files and untracked ones git does
// not ignore, each once (a conflicted file too), by their paths however
// odd; not what git ignores, nor a nested repository's files, nor what
// lies under a symbolic link to a directory.
func TestFilesAreTheFilesGitSees(t *testing.T) {
	testEnv(t)
	dir := t.TempDir()
	write := func(p, content string) {
		t.Helper()
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	testgit.Run(t, dir, "init", "-q", "-b", "main")
	write("AGENTS.md", "base\n")
	write("pkg/ünï cödé/AGENTS.md", "odd\n")
	write(".gitignore", "node_modules/\n")
	testgit.Run(t, dir, "add", "-A")
	testgit.Run(t, dir, "commit", "-q", "-m", "files")
	// A conflicted AGENTS.md: three stages in the index.
	testgit.Run(t, dir, "switch", "-q", "-c", "side")
	write("AGENTS.md", "side\n")
	testgit.Run(t, dir, "commit", "-q", "-am", "side")
	testgit.Run(t, dir, "switch", "-q", "main")
	write("AGENTS.md", "main\n")
	testgit.Run(t, dir, "commit", "-q", "-am", "main")
	if _, code := testgit.Exit(t, nil, dir, "merge", "-q", "side"); code == 0 {
		t.Fatal("the merge did not conflict")
	}
	write("node_modules/left-pad/AGENTS.md", "ignored\n")
	write("new/AGENTS.md", "untracked\n")
	write("nested/AGENTS.md", "another repository's\n")
	testgit.Run(t, filepath.Join(dir, "nested"), "init", "-q")
	write("real/AGENTS.md", "real\n")
	if err := os.Symlink("real", filepath.Join(dir, "linked")); err != nil {
		t.Fatal(err)
	}
	got, err := OpenCode(dir).Files(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	want := []string{".gitignore", "AGENTS.md", "linked", "new/AGENTS.md", "pkg/ünï cödé/AGENTS.md", "real/AGENTS.md"}
	if !slices.Equal(got, want) {
		t.Errorf("Files = %q, want %q", got, want)
	}
}
