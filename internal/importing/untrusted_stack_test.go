package importing_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/planq-dev/planq/internal/importing"
)

// TestStackReadsNoManifestPlanqShouldNot: a go.mod that is a FIFO blocked
// every session start; a package.json linked out of the checkout was read
// as the project's. Stack names their languages (the files are there) and
// reads neither; a manifest linked to another file of the checkout is read.
func TestStackReadsNoManifestPlanqShouldNot(t *testing.T) {
	outside := t.TempDir()
	if err := os.WriteFile(filepath.Join(outside, "package.json"), []byte(`{"dependencies":{"react":"18"}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if out, err := exec.Command("mkfifo", filepath.Join(dir, "go.mod")).CombinedOutput(); err != nil {
		t.Skipf("mkfifo: %v %s", err, out)
	}
	if err := os.Symlink(filepath.Join(outside, "package.json"), filepath.Join(dir, "package.json")); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "Cargo.real"), []byte("[dependencies]\ntokio = \"1\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("Cargo.real", filepath.Join(dir, "Cargo.toml")); err != nil {
		t.Fatal(err)
	}
	done := make(chan []string, 1)
	go func() { done <- importing.Stack(dir) }()
	select {
	case got := <-done:
		if want := []string{"go", "node", "rust", "tokio", "cargo"}; !slices.Equal(got, want) {
			t.Errorf("Stack = %q, want %q", got, want)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Stack blocked on a go.mod that is a FIFO")
	}
}
