package memtool_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/planq-dev/planq/agent"
	"github.com/planq-dev/planq/internal/memtool"
	"github.com/planq-dev/planq/internal/testkit/testgit"
	"github.com/planq-dev/planq/internal/testkit/testproject"
	"github.com/planq-dev/planq/planqerr"
)

func folderFor(t *testing.T, opts agent.WriteOptions) (*memtool.Folder, *agent.Agent) {
	t.Helper()
	_, a := testproject.Auth(t)
	f, err := memtool.ForAgent(a, opts)
	if err != nil {
		t.Fatal(err)
	}
	return f, a
}

func apply(t *testing.T, f *memtool.Folder, c memtool.Command) (memtool.Result, error) {
	t.Helper()
	return memtool.Apply(context.Background(), f, c)
}

func str(s string) *string { return &s }

// A link under memories/ could lead out of it: every command that meets
// one refuses, and nothing outside is read or written.
func TestSymbolicLinksAreRefused(t *testing.T) {
	f, a := folderFor(t, agent.WriteOptions{})
	outside := t.TempDir()
	if err := os.WriteFile(filepath.Join(outside, "secret.txt"), []byte("outside\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	mem := filepath.Join(a.Dir, "memories")
	if err := os.MkdirAll(filepath.Join(mem, "dir"), 0o755); err != nil {
		t.Fatal(err)
	}
	for link, target := range map[string]string{"out": outside, "file.md": filepath.Join(outside, "secret.txt"), "dir/inner": outside} {
		if err := os.Symlink(target, filepath.Join(mem, filepath.FromSlash(link))); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []memtool.Command{
		{Command: "view", Path: "/memories/out"},
		{Command: "view", Path: "/memories/file.md"},
		{Command: "create", Path: "/memories/out/new.md", FileText: str("x")},
		{Command: "str_replace", Path: "/memories/file.md", OldStr: str("outside"), NewStr: str("inside")},
		{Command: "delete", Path: "/memories/dir"},
		{Command: "rename", OldPath: "/memories/dir", NewPath: "/memories/moved"},
		{Command: "rename", OldPath: "/memories/out", NewPath: "/memories/moved"},
	} {
		_, err := apply(t, f, c)
		r, ok := memtool.AsRefusal(err)
		if !ok || !strings.Contains(r.Text, "would escape /memories directory via symlink") {
			t.Errorf("%+v: got %v, want the symlink refusal", c, err)
		}
	}
	if data, _ := os.ReadFile(filepath.Join(outside, "secret.txt")); string(data) != "outside\n" {
		t.Errorf("the file outside was changed: %q", data)
	}
	if entries, _ := os.ReadDir(outside); len(entries) != 1 {
		t.Errorf("something was written outside: %v", entries)
	}
	// The folder itself a link: the same.
	if err := os.RemoveAll(mem); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, mem); err != nil {
		t.Fatal(err)
	}
	if _, err := apply(t, f, memtool.Command{Command: "view", Path: "/memories"}); err == nil || !strings.Contains(err.Error(), "via symlink") {
		t.Errorf("view of a linked folder: %v", err)
	}
}

// A file over a record's size, or text that is not UTF-8 put there by
// hand, is refused as every record's is; nothing is written or committed.
func TestSizeAndBinaryText(t *testing.T) {
	f, a := folderFor(t, agent.WriteOptions{})
	head := testgit.Run(t, a.Dir, "rev-parse", "HEAD")
	big := strings.Repeat("x", 64<<10+1)
	_, err := apply(t, f, memtool.Command{Command: "create", Path: "/memories/big.md", FileText: &big})
	r, ok := memtool.AsRefusal(err)
	if !ok || r.Kind != planqerr.Invalid || !strings.Contains(r.Text, "Error: /memories/big.md: is 65537 bytes; a record holds at most 65536 (64 KiB)") {
		t.Errorf("create over the limit: %v", err)
	}
	if _, err := os.Stat(filepath.Join(a.Dir, "memories", "big.md")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the refused file was written: %v", err)
	}
	// Growing a file past the limit is refused too, and the file stays.
	if _, err := apply(t, f, memtool.Command{Command: "create", Path: "/memories/grow.md", FileText: str("small\n")}); err != nil {
		t.Fatal(err)
	}
	_, err = apply(t, f, memtool.Command{Command: "insert", Path: "/memories/grow.md", InsertLine: new(int), InsertText: &big})
	if _, ok := memtool.AsRefusal(err); !ok {
		t.Errorf("insert past the limit: %v", err)
	}
	if data, _ := os.ReadFile(filepath.Join(a.Dir, "memories", "grow.md")); string(data) != "small\n" {
		t.Errorf("grow.md = %q after a refused insert", data)
	}
	if err := os.WriteFile(filepath.Join(a.Dir, "memories", "bin.md"), []byte("a\xffb\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []memtool.Command{
		{Command: "view", Path: "/memories/bin.md"},
		{Command: "str_replace", Path: "/memories/bin.md", OldStr: str("a"), NewStr: str("b")},
		{Command: "insert", Path: "/memories/bin.md", InsertLine: new(int), InsertText: str("x")},
	} {
		_, err := apply(t, f, c)
		if r, ok := memtool.AsRefusal(err); !ok || r.Text != "Error: The file /memories/bin.md is not UTF-8 text; the memory tool reads and writes text only" {
			t.Errorf("%s of a binary file: %v", c.Command, err)
		}
	}
	if n := testgit.Run(t, a.Dir, "rev-list", "--count", strings.TrimSpace(head)+"..HEAD"); strings.TrimSpace(n) != "1" {
		t.Errorf("%s commits after the refusals, want 1 (grow.md's create)", strings.TrimSpace(n))
	}
}

// allow_secret lets a credential that is none through, as for a record.
func TestAllowSecret(t *testing.T) {
	f, _ := folderFor(t, agent.WriteOptions{AllowSecret: true})
	if _, err := apply(t, f, memtool.Command{Command: "create", Path: "/memories/k.md", FileText: str("AKIAIOSFODNN7EXAMPLE is the docs' example\n")}); err != nil {
		t.Fatal(err)
	}
}

// A change whose commit fails is undone: the folder is as it was, and the
// error is planq's own, not an answer.
func TestFailedCommitChangesNothing(t *testing.T) {
	f, a := folderFor(t, agent.WriteOptions{})
	for _, c := range []memtool.Command{
		{Command: "create", Path: "/memories/a.md", FileText: str("one\ntwo\n")},
		{Command: "create", Path: "/memories/d/b.md", FileText: str("b\n")},
	} {
		if _, err := apply(t, f, c); err != nil {
			t.Fatal(err)
		}
	}
	mem := filepath.Join(a.Dir, "memories")
	snapshot := func() string {
		var b strings.Builder
		_ = filepath.WalkDir(mem, func(p string, _ os.DirEntry, _ error) error {
			rel, _ := filepath.Rel(mem, p)
			data, _ := os.ReadFile(p)
			b.WriteString(rel + "=" + string(data) + ";")
			return nil
		})
		return b.String()
	}
	before := snapshot()
	broken := *f
	broken.Commit = func(context.Context, []string, string) (string, error) { return "", errors.New("index locked") }
	for _, c := range []memtool.Command{
		{Command: "create", Path: "/memories/new/c.md", FileText: str("c\n")},
		{Command: "str_replace", Path: "/memories/a.md", OldStr: str("one"), NewStr: str("uno")},
		{Command: "insert", Path: "/memories/a.md", InsertLine: new(int), InsertText: str("zero")},
		{Command: "delete", Path: "/memories/d"},
		{Command: "delete", Path: "/memories/a.md"},
		{Command: "rename", OldPath: "/memories/d", NewPath: "/memories/e/f"},
		{Command: "rename", OldPath: "/memories/a.md", NewPath: "/memories/z.md"},
	} {
		_, err := apply(t, &broken, c)
		if _, ok := memtool.AsRefusal(err); ok || !strings.Contains(errText(err), "index locked") {
			t.Errorf("%s: %v, want planq's commit failure", c.Command, err)
		}
		if got := snapshot(); got != before {
			t.Errorf("%s: the folder changed although nothing was committed:\n%s\nwant\n%s", c.Command, got, before)
		}
	}
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}
