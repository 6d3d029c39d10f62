package userlayer

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/planq-dev/planq/internal/testkit/testgit"
	"github.com/planq-dev/planq/project"
)

// TestARingOfVersionsIsNamedNotChased: two learnings of the user layer that
// supersede each other (plain git writes them; a pull brings them) are
// each refused with validate's ring words, where each used to name the
// other as the version to act on.
func TestARingOfVersionsIsNamedNotChased(t *testing.T) {
	l := openLayer(t)
	work := filepath.Join(t.TempDir(), "work")
	testgit.Run(t, l.Project.StateRepo(), "worktree", "add", "-q", work, project.GlobalBranch)
	record := func(id, supersedes, day, body string) {
		dir := filepath.Join(work, "learnings", "preferences")
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		text := "---\nid: " + id + "\nkind: learning\ntype: convention\ntimestamp: 2026-01-0" + day + "T10:00:00Z\nagent: user\nsupersedes: " + supersedes +
			"\ndomain: preferences\nclassification: foundational\n---\n" + body + "\n"
		if err := os.WriteFile(filepath.Join(dir, id+".md"), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	record("pq-00000000a1", "pq-00000000b2", "1", "Prefers tabs")
	record("pq-00000000b2", "pq-00000000a1", "2", "Prefers spaces")
	testgit.Run(t, work, "add", "learnings")
	testgit.Run(t, work, "commit", "-q", "-m", "a ring, by hand")

	for _, id := range []string{"pq-00000000a1", "pq-00000000b2"} {
		if _, err := l.Target(id); err == nil || !strings.Contains(err.Error(), "versions supersede each other in a ring") {
			t.Errorf("Target(%s) on a ring: %v, want validate's ring error", id, err)
		}
	}
}
