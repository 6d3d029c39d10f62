package agent_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/planq-dev/planq/agent"
	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/internal/testkit/testgit"
	"github.com/planq-dev/planq/internal/testkit/testproject"
	"github.com/planq-dev/planq/project"
	"github.com/planq-dev/planq/readmodel"
)

func learn(t *testing.T, a *agent.Agent, text string) string {
	t.Helper()
	r, err := changelog.NewLearning(changelog.LearningInput{Text: text, Type: changelog.TypePattern, Domain: "auth"})
	if err != nil {
		t.Fatal(err)
	}
	w, err := a.Write(context.Background(), r, agent.WriteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return w.ID
}

func logEntry(t *testing.T, a *agent.Agent, text string) {
	t.Helper()
	r, err := changelog.NewLog(changelog.LogInput{Text: text})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := a.Write(context.Background(), r, agent.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
}

// committedUses is the agent's uses file at the tip of its branch.
func committedUses(t *testing.T, store *agent.Store, a *agent.Agent) map[string]readmodel.Use {
	t.Helper()
	tip, err := store.Repo.Tip(a.Branch)
	if err != nil {
		t.Fatal(err)
	}
	data, err := store.Repo.ReadFile(tip, project.UsesPath(a.Name))
	if err != nil {
		t.Fatalf("%s at %s: %v", project.UsesPath(a.Name), a.Branch, err)
	}
	return readmodel.ParseUses(data)
}

// TestNotedUsesRideTheNextCommit: a read's NoteUses appends to a journal
// outside git and commits nothing; the agent's next commit, whatever it
// is, carries the uses in its uses file (counted, with the latest time)
// and empties the journal; later uses add to what is committed; the read
// model's LastUses sees them.
func TestNotedUsesRideTheNextCommit(t *testing.T) {
	store, a := testproject.Auth(t)
	ctx := context.Background()
	l1 := learn(t, a, "Tokens expire after 15 minutes")
	l2 := learn(t, a, "Sessions live in Redis")
	tip, err := store.Repo.Tip(a.Branch)
	if err != nil {
		t.Fatal(err)
	}
	journal := store.Project.UsesJournal(a.Name)

	before := time.Now().Add(-time.Second)
	if err := a.NoteUses([]string{l1, "not an id", l2}); err != nil {
		t.Fatal(err)
	}
	if err := a.NoteUses([]string{l1}); err != nil {
		t.Fatal(err)
	}
	if err := a.NoteUses([]string{"nonsense"}); err != nil {
		t.Fatal(err)
	}
	after := time.Now().Add(time.Second)
	if data, err := os.ReadFile(journal); err != nil || strings.Count(string(data), "\n") != 2 {
		t.Fatalf("journal %s: %q, %v; want a line for each call that named a record", journal, data, err)
	}
	if now, err := store.Repo.Tip(a.Branch); err != nil || now != tip {
		t.Fatalf("noting uses moved %s from %s to %s (%v): a read must not commit", a.Branch, tip, now, err)
	}
	if out := testgit.Run(t, a.Dir, "status", "--porcelain"); out != "" {
		t.Fatalf("noting uses touched the worktree:\n%s", out)
	}

	logEntry(t, a, "wired the refresh")
	uses := committedUses(t, store, a)
	if len(uses) != 2 || uses[l1].Count != 2 || uses[l2].Count != 1 {
		t.Fatalf("committed uses %+v, want %s twice and %s once", uses, l1, l2)
	}
	for id, u := range uses {
		if u.Last.Before(before.Truncate(time.Second)) || u.Last.After(after) {
			t.Errorf("%s last used %s, not when it was noted (between %s and %s)", id, u.Last, before, after)
		}
	}
	for _, p := range []string{journal, journal + ".flushing"} {
		if _, err := os.Stat(p); !os.IsNotExist(err) {
			t.Errorf("%s is left after the commit that carried it (%v)", p, err)
		}
	}
	if out := testgit.Run(t, a.Dir, "status", "--porcelain"); out != "" {
		t.Errorf("the uses file is left uncommitted:\n%s", out)
	}

	// Later uses add to what is committed, whatever commits them.
	if err := a.NoteUses([]string{l2}); err != nil {
		t.Fatal(err)
	}
	if _, _, err := a.CommitPending(ctx, "checkpoint"); err != nil {
		t.Fatal(err)
	}
	uses = committedUses(t, store, a)
	if uses[l1].Count != 2 || uses[l2].Count != 2 {
		t.Errorf("after one more use of %s: %+v", l2, uses)
	}
	last, err := store.Records.LastUses()
	if err != nil {
		t.Fatal(err)
	}
	if !last[l1].Equal(uses[l1].Last) || !last[l2].Equal(uses[l2].Last) {
		t.Errorf("LastUses %v, the committed file says %+v", last, uses)
	}
}

// TestAFailedFlushLosesNoUse: what a commit that failed left aside is
// carried first, before the journal noted since (which waits for the next
// commit rather than be moved over it); an empty leftover holds nothing
// back; a torn line costs its own uses only.
func TestAFailedFlushLosesNoUse(t *testing.T) {
	store, a := testproject.Auth(t)
	l1 := learn(t, a, "Tokens expire after 15 minutes")
	l2 := learn(t, a, "Sessions live in Redis")
	journal := store.Project.UsesJournal(a.Name)
	if err := os.MkdirAll(filepath.Dir(journal), 0o755); err != nil {
		t.Fatal(err)
	}
	write := func(p, data string) {
		t.Helper()
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(journal+".flushing", "2026-10-01T09:00:00Z\t"+l1+"\n2026-10-0")
	if err := a.NoteUses([]string{l2}); err != nil {
		t.Fatal(err)
	}
	logEntry(t, a, "one")
	if uses := committedUses(t, store, a); len(uses) != 1 || uses[l1].Count != 1 ||
		!uses[l1].Last.Equal(time.Date(2026, 10, 1, 9, 0, 0, 0, time.UTC)) {
		t.Fatalf("after a leftover: %+v, want %s alone, once, on 2026-10-01", uses, l1)
	}
	logEntry(t, a, "two")
	if uses := committedUses(t, store, a); len(uses) != 2 || uses[l2].Count != 1 {
		t.Fatalf("the journal that waited: %+v, want %s too", uses, l2)
	}

	write(journal+".flushing", "")
	if err := a.NoteUses([]string{l2}); err != nil {
		t.Fatal(err)
	}
	logEntry(t, a, "three")
	if uses := committedUses(t, store, a); uses[l2].Count != 2 {
		t.Fatalf("behind an empty leftover: %+v, want %s twice", uses, l2)
	}
}
