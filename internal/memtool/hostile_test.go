package memtool_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/planq-dev/planq/agent"
	"github.com/planq-dev/planq/internal/memtool"
	"github.com/planq-dev/planq/internal/testkit/testgit"
	"github.com/planq-dev/planq/planqerr"
)

// A path whose every name fits but which is, whole, longer than the file
// system takes (PATH_MAX) is refused with the protocol's answer, not the
// file system's error, for create and for rename's destination; nothing is
// committed and no directory made on the way is left behind.
func TestPathTooLongForTheFileSystem(t *testing.T) {
	f, a := folderFor(t, agent.WriteOptions{})
	deep := memtool.Root + strings.Repeat("/"+strings.Repeat("d", 230), 20) + "/x.md"
	commits := func() string { return strings.TrimSpace(testgit.Run(t, a.Dir, "rev-list", "--count", "HEAD")) }
	if _, err := apply(t, f, memtool.Command{Command: "create", Path: "/memories/a.md", FileText: str("a\n")}); err != nil {
		t.Fatal(err)
	}
	before := commits()
	for _, c := range []memtool.Command{
		{Command: "create", Path: deep, FileText: str("x")},
		{Command: "rename", OldPath: "/memories/a.md", NewPath: deep},
	} {
		_, err := apply(t, f, c)
		r, ok := memtool.AsRefusal(err)
		want := "Error: The path " + deep + " is too long for the file system"
		if !ok || r.Text != want || r.Kind != planqerr.Invalid {
			t.Errorf("%s of a path of %d bytes: want the refusal that it is too long for the file system, got %.300v", c.Command, len(deep), err)
		}
	}
	if got := commits(); got != before {
		t.Errorf("%s commits after the refusals, want %s", got, before)
	}
	entries, err := os.ReadDir(filepath.Join(a.Dir, "memories"))
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 1 || entries[0].Name() != "a.md" {
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		t.Errorf("memories/ holds %v after the refusals, want a.md alone", names)
	}
	if status := testgit.Run(t, a.Dir, "status", "--porcelain"); status != "" {
		t.Errorf("the worktree is not clean:\n%s", status)
	}
}
