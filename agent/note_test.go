package agent_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/planq-dev/planq/agent"
	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/internal/failpoint"
	"github.com/planq-dev/planq/internal/testkit/testproject"
	"github.com/planq-dev/planq/project"
)

// TestNotesInboxBackWhenCommitFails: a note whose commit fails (here its
// context ends just before the branch moves) leaves the inbox exactly as
// it was, with a line appended while planq worked kept after it, and no
// note file behind; the next note takes every line.
func TestNotesInboxBackWhenCommitFails(t *testing.T) {
	store, a := testproject.Auth(t)
	inbox := filepath.Join(a.Dir, project.NotesInbox)
	before, err := os.ReadFile(inbox)
	if err != nil {
		t.Fatal(err)
	}
	before = append(before, "- alpha\n- key AKIA2E0A8F3B244C9986\n# mine\n- beta"...) // no final newline
	if err := os.WriteFile(inbox, before, 0o644); err != nil {
		t.Fatal(err)
	}
	tip, err := store.Repo.Tip(a.Branch)
	if err != nil {
		t.Fatal(err)
	}

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	unset := failpoint.Set(failpoint.CommitWritten, func() {
		appendTo(t, inbox, "\n- written meanwhile\n")
		cancel()
	})
	_, err = a.Note(ctx, "gamma", "", "claude", agent.WriteOptions{})
	unset()
	if err == nil {
		t.Fatal("the note was committed; want the commit to fail")
	}
	after, rerr := os.ReadFile(inbox)
	if rerr != nil {
		t.Fatal(rerr)
	}
	if want := string(before) + "\n- written meanwhile\n"; string(after) != want {
		t.Fatalf("inbox after a failed commit:\n%s\nwant:\n%s", after, want)
	}
	if now, _ := store.Repo.Tip(a.Branch); now != tip {
		t.Fatalf("the branch moved to %s", now)
	}
	if notes, _ := filepath.Glob(filepath.Join(a.Dir, "notes", "*", "*.md")); len(notes) > 0 {
		t.Fatalf("note files left behind: %v", notes)
	}

	noted, err := a.Note(context.Background(), "gamma", "", "claude", agent.WriteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var bodies []string
	for _, w := range noted.Written {
		data, err := os.ReadFile(filepath.Join(a.Dir, w.Path))
		if err != nil {
			t.Fatal(err)
		}
		rec, err := changelog.Parse(w.Path, data)
		if err != nil {
			t.Fatal(err)
		}
		bodies = append(bodies, rec.Body)
	}
	if got := strings.Join(bodies, "|"); got != "alpha|beta|written meanwhile|gamma" {
		t.Fatalf("notes %q, want alpha, beta, the line written meanwhile, then gamma", got)
	}
	if len(noted.Kept) != 1 || !strings.HasSuffix(noted.Kept[0].Subject, "notes.md:3") {
		t.Fatalf("kept %v, want line 3 (the credential)", noted.Kept)
	}
	left, err := os.ReadFile(inbox)
	if err != nil {
		t.Fatal(err)
	}
	if want := "\n- key AKIA2E0A8F3B244C9986\n# mine\n"; !strings.HasSuffix(string(left), want) || strings.Count(string(left), "\n") != 3 {
		t.Fatalf("inbox after the notes:\n%s\nwant the header, the credential's line and the comment", left)
	}
}

func appendTo(t *testing.T, path, text string) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteString(text); err != nil {
		t.Fatal(err)
	}
}
