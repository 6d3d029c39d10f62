package curation

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/planq-dev/planq/agent"
	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/internal/testkit/testgit"
	"github.com/planq-dev/planq/internal/testkit/testproject"
	"github.com/planq-dev/planq/lifecycle"
	"github.com/planq-dev/planq/planqerr"
	"github.com/planq-dev/planq/project"
)

// newProject is a project "demo" whose code repository has a committed
// CLAUDE.md, with agent "auth" mounted in it, and three raw notes.
func newProject(t *testing.T) (*agent.Store, string, []string) {
	t.Helper()
	ctx := context.Background()
	p := testproject.New(t, map[string]string{"CLAUDE.md": "# Project\n\n## Build\n\nRun `make`.\n"})
	store, code, a := p.Store, p.Code, p.Agent
	var ids []string
	for _, text := range []string{"build the dashboard with go run ./cmd/build-dashboard", "overlay tests need --race", "the linter wants gofumpt"} {
		w, err := a.Note(ctx, text, "", "claude", agent.WriteOptions{})
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, w.Written[len(w.Written)-1].ID)
	}
	return store, code, ids
}

func notesByState(t *testing.T, store *agent.Store) map[changelog.Status][]string {
	t.Helper()
	set, err := store.Records.All(changelog.KindNote)
	if err != nil {
		t.Fatal(err)
	}
	out := map[changelog.Status][]string{}
	for _, r := range set.Current() {
		out[r.Status] = append(out[r.Status], r.Body)
	}
	for _, bodies := range out {
		slices.Sort(bodies)
	}
	return out
}

// TestNotesGoThroughTheirStatesAndDecidedOnesArePruned follows notes from
// raw to applied and dismissed, each a new version; a prune 30 days on
// archives the decided ones and never the raw one.
func TestNotesGoThroughTheirStatesAndDecidedOnesArePruned(t *testing.T) {
	ctx := context.Background()
	store, code, ids := newProject(t)
	p := Proposal{ProposedFiles: map[string]string{"CLAUDE.md": "# Project\n\n## Build\n\nRun `make`.\nBuild the dashboard with `go run ./cmd/build-dashboard`.\n"},
		DiffSummary: "the dashboard", EntriesUsed: []string{ids[0]}, EntriesDiscarded: map[string]string{ids[2]: "the linter says so itself"}}
	rec, err := Propose(ctx, store, code, "auth", p)
	if err != nil {
		t.Fatal(err)
	}
	got := notesByState(t, store)
	if len(got[changelog.StatusProposed]) != 2 || len(got[changelog.StatusRaw]) != 1 {
		t.Fatalf("after propose: %v", got)
	}
	edited := "# Project\n\n## Build\n\nRun `make`.\nDashboard: `go run ./cmd/build-dashboard`.\n"
	done, err := Apply(ctx, store, code, "lead", rec.ID, ApplyOptions{Edited: map[string]string{"CLAUDE.md": edited}})
	if err != nil {
		t.Fatal(err)
	}
	if done.Additions != 1 || done.Proposal != rec.ID {
		t.Errorf("apply: %+v", done)
	}
	if data, _ := os.ReadFile(filepath.Join(code, "CLAUDE.md")); string(data) != edited {
		t.Errorf("CLAUDE.md is %q, want the edited content", data)
	}
	if msg := testgit.Run(t, code, "log", "-1", "--format=%B"); !strings.Contains(msg, "Add 1 line to CLAUDE.md") || !strings.Contains(msg, "Planq-Proposal: "+rec.ID) {
		t.Errorf("commit message: %q", msg)
	}
	got = notesByState(t, store)
	want := map[changelog.Status][]string{
		changelog.StatusApplied:   {"build the dashboard with go run ./cmd/build-dashboard"},
		changelog.StatusDismissed: {"the linter wants gofumpt"},
		changelog.StatusRaw:       {"overlay tests need --race"},
	}
	for status, bodies := range want {
		if !slices.Equal(got[status], bodies) {
			t.Errorf("%s notes: %v, want %v", status, got[status], bodies)
		}
	}
	// Every state is a new version: the raw versions are all still there.
	all, err := store.Records.All(changelog.KindNote)
	if err != nil {
		t.Fatal(err)
	}
	if len(all.Records) != 3+2+2 {
		t.Errorf("%d note versions, want 3 raw, 2 proposed, 2 decided", len(all.Records))
	}

	prune := func(now time.Time, dry bool) []string {
		t.Helper()
		res, err := lifecycle.Prune(ctx, store, lifecycle.PruneOptions{Now: now, DryRun: dry, Writer: "lead"})
		if err != nil {
			t.Fatal(err)
		}
		var titles []string
		for _, a := range res.Archived {
			titles = append(titles, a.Title)
		}
		slices.Sort(titles)
		return titles
	}
	if got := prune(time.Now().Add(29*24*time.Hour), true); len(got) != 0 {
		t.Errorf("29 days on, prune takes %v", got)
	}
	if got := prune(time.Now().Add(31*24*time.Hour), false); !slices.Equal(got, []string{"build the dashboard with go run ./cmd/build-dashboard", "the linter wants gofumpt"}) {
		t.Errorf("31 days on, prune took %v, want the applied and the dismissed note", got)
	}
	if got := notesByState(t, store); len(got) != 1 || len(got[changelog.StatusRaw]) != 1 {
		t.Errorf("after the prune: %v, want the raw note alone", got)
	}
}

// TestApplyCutShortIsRecordedNotRepeated: an apply whose commit landed but
// whose state did not is finished by the next apply, which commits nothing.
func TestApplyCutShortIsRecordedNotRepeated(t *testing.T) {
	ctx := context.Background()
	store, code, ids := newProject(t)
	proposed := "# Project\n\n## Build\n\nRun `make`.\nOverlay tests need `--race`.\n"
	rec, err := Propose(ctx, store, code, "auth", Proposal{ProposedFiles: map[string]string{"CLAUDE.md": proposed},
		DiffSummary: "race", EntriesUsed: []string{ids[1]}})
	if err != nil {
		t.Fatal(err)
	}
	// What apply's commit would have done, by hand.
	if err := os.WriteFile(filepath.Join(code, "CLAUDE.md"), []byte(proposed), 0o644); err != nil {
		t.Fatal(err)
	}
	testgit.Run(t, code, "commit", "-q", "-am", "by hand")
	head := testgit.Run(t, code, "rev-parse", "HEAD")
	done, err := Apply(ctx, store, code, "lead", rec.ID, ApplyOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !done.Recorded || done.Commit != strings.TrimSpace(head) {
		t.Errorf("apply: %+v, want it recorded at %s", done, head)
	}
	if now := testgit.Run(t, code, "rev-parse", "HEAD"); now != head {
		t.Error("apply committed again")
	}
	views, err := List(ctx, store.Handle, code)
	if err != nil || len(views) != 1 || views[0].State != StateApplied {
		t.Fatalf("list: %+v %v", views, err)
	}
}

func TestRemovedLine(t *testing.T) {
	for _, c := range []struct {
		old, new string
		line     int
	}{
		{"a\nb\n", "a\nx\nb\ny\n", 0},
		{"a\nb\n", "b\na\n", 2},
		{"a\nb\n", "a\nB\n", 2},
		{"a\na\n", "a\n", 2},
		{"", "x\n", 0},
		{"a\nb", "a\nb\nc\n", 0},
	} {
		line, _, gone := removedLine(c.old, c.new)
		if gone != (c.line > 0) || line != c.line {
			t.Errorf("removedLine(%q, %q) = %d, %v; want line %d", c.old, c.new, line, gone, c.line)
		}
	}
}

// TestApplyTakesPathsLiterally: a file named like a glob is itself, not
// the files it would match: another file's uncommitted change neither
// stops the apply nor lands in its commit.
func TestApplyTakesPathsLiterally(t *testing.T) {
	ctx := context.Background()
	store, code, ids := newProject(t)
	if err := os.MkdirAll(filepath.Join(code, ".cursor", "rules"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(code, ".cursor", "rules", "x.mdc"), []byte("work in progress\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	rec, err := Propose(ctx, store, code, "auth", Proposal{ProposedFiles: map[string]string{".cursor/rules/[x].mdc": "Use tabs.\n"},
		DiffSummary: "tabs", EntriesUsed: []string{ids[2]}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Apply(ctx, store, code, "lead", rec.ID, ApplyOptions{}); err != nil {
		t.Fatal(err)
	}
	if files := testgit.Run(t, code, "show", "--name-only", "--format=", "HEAD"); files != ".cursor/rules/[x].mdc" {
		t.Errorf("the commit holds %q, want the glob-named file alone", files)
	}
	if status := testgit.Run(t, code, "status", "--porcelain", "--untracked-files=all", "--", ".cursor"); !strings.Contains(status, "?? .cursor/rules/x.mdc") {
		t.Errorf("x.mdc should stay untracked and untouched: %q", status)
	}
}

// TestGlobalWritesAreCheckedAsAgentRecordsAre holds the writer of global
// that curation goes through to the checks an agent's record passes: a
// change with one record or file that global could not hold, or that
// carries a credential, is refused whole, and global does not move.
func TestGlobalWritesAreCheckedAsAgentRecordsAre(t *testing.T) {
	ctx := context.Background()
	store, _, _ := newProject(t)
	set, err := store.Records.All(changelog.KindNote)
	if err != nil {
		t.Fatal(err)
	}
	note := set.Current()[0]
	now := time.Now().UTC()
	big := *note
	big.Body = strings.Repeat("planq ", changelog.MaxRecordSize/6+1)
	before, err := store.Repo.Tip(project.GlobalBranch)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name   string
		change agent.GlobalChange
		kind   planqerr.Kind
		want   string
	}{
		{"record over 64 KiB", agent.GlobalChange{Records: []*changelog.Record{NoteState(note, changelog.StatusProposed, "lead", now), NoteState(&big, changelog.StatusProposed, "lead", now)}},
			planqerr.Invalid, "a record holds at most 65536"},
		{"credential in a file", agent.GlobalChange{Records: []*changelog.Record{NoteState(note, changelog.StatusProposed, "lead", now)},
			Files: map[string][]byte{"proposed/pq-0123456789/AGENTS.md": []byte("key AKIA2E0A8F3B244C9986\n")}},
			planqerr.Refused, "looks like a credential"},
		{"binary file", agent.GlobalChange{Files: map[string][]byte{"proposed/pq-0123456789/AGENTS.md": {'a', 0, 'b'}}},
			planqerr.Invalid, "NUL byte"},
	} {
		c.change.Message = "test"
		_, err := store.CommitGlobal(ctx, c.change)
		if !planqerr.Is(err, c.kind) || err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want a %v error saying %q", c.name, err, c.kind, c.want)
		}
		after, err := store.Repo.Tip(project.GlobalBranch)
		if err != nil {
			t.Fatal(err)
		}
		if after != before {
			t.Errorf("%s: global moved from %s to %s", c.name, before, after)
		}
	}
}

// A record written before credentials were refused on global must still be
// retired: its next version may carry the credential it had, and no other.
func TestANewVersionMayCarryACredentialItsPredecessorHad(t *testing.T) {
	ctx := context.Background()
	p := testproject.New(t, nil)
	const key = "AKIA2E0A8F3B244C9986"
	w, err := p.Agent.Note(ctx, "deploy key "+key, "", "claude", agent.WriteOptions{AllowSecret: true})
	if err != nil {
		t.Fatal(err)
	}
	set, err := p.Store.Records.All(changelog.KindNote)
	if err != nil {
		t.Fatal(err)
	}
	var old *changelog.Record
	for _, r := range set.Records {
		if r.ID == w.Written[0].ID {
			old = r
		}
	}
	if old == nil {
		t.Fatal("the note written is not read back")
	}
	now := time.Now().UTC()
	same := NoteState(old, changelog.StatusDismissed, "lead", now)
	same.AllowSecret = false // as a writer that never allowed one would write it
	if _, err := p.Store.CommitGlobal(ctx, agent.GlobalChange{Records: []*changelog.Record{same}, Message: "dismiss"}); err != nil {
		t.Fatalf("the next state of a record holding a credential it had: %v", err)
	}
	more := NoteState(old, changelog.StatusDismissed, "lead", now.Add(time.Second))
	more.AllowSecret = false
	more.Body += " and ghp_0123456789abcdefghijABCDEFGHIJ0123456789"
	_, err = p.Store.CommitGlobal(ctx, agent.GlobalChange{Records: []*changelog.Record{more}, Message: "dismiss"})
	if !planqerr.Is(err, planqerr.Refused) {
		t.Fatalf("a version adding a credential: got %v, want it refused", err)
	}
}
