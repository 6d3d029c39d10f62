package team_test

import (
	"context"
	"strings"
	"testing"

	"github.com/planq-dev/planq/agent"
	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/internal/testkit/testgit"
	"github.com/planq-dev/planq/internal/testkit/testproject"
	"github.com/planq-dev/planq/planqerr"
	"github.com/planq-dev/planq/project"
	"github.com/planq-dev/planq/readmodel"
	"github.com/planq-dev/planq/staterepo"
	"github.com/planq-dev/planq/team"
)

func write(t *testing.T, a *agent.Agent, r *changelog.Record) string {
	t.Helper()
	w, err := a.Write(context.Background(), r, agent.WriteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return w.ID
}

func learning(t *testing.T, text string) *changelog.Record {
	t.Helper()
	r, err := changelog.NewLearning(changelog.LearningInput{Text: text, Type: changelog.TypePattern, Domain: "auth"})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func logEntry(t *testing.T, text string) *changelog.Record {
	t.Helper()
	r, err := changelog.NewLog(changelog.LogInput{Text: text})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func globalTip(t *testing.T, store *agent.Store) staterepo.Hash {
	t.Helper()
	tip, err := store.Repo.Tip(project.GlobalBranch)
	if err != nil {
		t.Fatal(err)
	}
	return tip
}

// globalUses is agent's uses file on global.
func globalUses(t *testing.T, store *agent.Store, agentName string) map[string]readmodel.Use {
	t.Helper()
	data, err := store.Repo.ReadFile(globalTip(t, store), project.UsesPath(agentName))
	if err != nil {
		t.Fatalf("%s on global: %v", project.UsesPath(agentName), err)
	}
	return readmodel.ParseUses(data)
}

// TestPromoteCarriesUsesToGlobal: the uses an agent noted, once its next
// commit carried them, reach global with its promote, as the agent counted
// them; a later promote with nothing new to bring still brings the uses
// noted since, so the team's shelf lives see them.
func TestPromoteCarriesUsesToGlobal(t *testing.T) {
	store, a := testproject.Auth(t)
	ctx := context.Background()
	id := write(t, a, learning(t, "Tokens expire after 15 minutes"))
	for range 2 {
		if err := a.NoteUses([]string{id}); err != nil {
			t.Fatal(err)
		}
	}
	write(t, a, logEntry(t, "wired the refresh"))
	if _, err := team.Promote(ctx, store, a, team.PromoteOptions{}); err != nil {
		t.Fatal(err)
	}
	if u := globalUses(t, store, a.Name); u[id].Count != 2 {
		t.Fatalf("global's uses of %s: %+v, want 2", id, u)
	}

	if err := a.NoteUses([]string{id}); err != nil {
		t.Fatal(err)
	}
	write(t, a, logEntry(t, "read it again"))
	res, err := team.Promote(ctx, store, a, team.PromoteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Candidates) != 0 || !res.MarkedMerged {
		t.Fatalf("promote of log entries alone: %+v, want nothing to bring and the tip marked merged", res)
	}
	used := globalUses(t, store, a.Name)
	if used[id].Count != 3 {
		t.Fatalf("global's uses after a promote with nothing new: %+v, want 3", used)
	}
	// Global answers alone: a reader of global's tree has the latest use.
	tip := globalTip(t, store)
	agentTip, err := store.Repo.Tip(a.Branch)
	if err != nil {
		t.Fatal(err)
	}
	agentUses, err := store.Repo.ReadFile(agentTip, project.UsesPath(a.Name))
	if err != nil {
		t.Fatal(err)
	}
	onGlobal, err := store.Repo.ReadFile(tip, project.UsesPath(a.Name))
	if err != nil || string(onGlobal) != string(agentUses) {
		t.Errorf("global's uses file is not the agent's:\n%s\nvs\n%s (%v)", onGlobal, agentUses, err)
	}
}

// TestCommitGlobalIsOneCommitOrNothing: records written straight to
// global (by agent.Store.CommitGlobal) are stamped (writer, time, a fresh ID), land in one commit on
// global with the message given, and a batch with one bad record, or one
// whose ID global has already, changes nothing.
func TestCommitGlobalIsOneCommitOrNothing(t *testing.T) {
	store, a := testproject.Auth(t)
	ctx := context.Background()
	id := write(t, a, learning(t, "Tokens expire after 15 minutes"))
	if _, err := team.Promote(ctx, store, a, team.PromoteOptions{}); err != nil {
		t.Fatal(err)
	}
	set, err := store.Records.Branch(project.GlobalBranch, changelog.KindLearning)
	if err != nil {
		t.Fatal(err)
	}
	var orig *changelog.Record
	for _, r := range set.Records {
		if r.ID == id {
			orig = r
		}
	}
	if orig == nil {
		t.Fatalf("%s is not on global after promote", id)
	}
	before := globalTip(t, store)

	// A bad record in the batch: nothing is written.
	marker, err := changelog.NewTombstone(orig, "archived")
	if err != nil {
		t.Fatal(err)
	}
	marker.Archived = true
	bad := &changelog.Record{Kind: changelog.KindLearning, Body: "no type, no domain"}
	if _, err := store.CommitGlobal(ctx, agent.GlobalChange{Writer: "lead", Records: []*changelog.Record{marker, bad}, Message: "two\n"}); !planqerr.Is(err, planqerr.Invalid) {
		t.Fatalf("a batch with a learning of no type: %v, want Invalid", err)
	}
	if got := globalTip(t, store); got != before {
		t.Fatalf("a refused batch moved global from %s to %s", before, got)
	}

	marker, err = changelog.NewTombstone(orig, "archived")
	if err != nil {
		t.Fatal(err)
	}
	marker.Archived = true
	note := learning(t, "Refresh on 401")
	commit, err := store.CommitGlobal(ctx, agent.GlobalChange{Writer: "lead", Records: []*changelog.Record{marker, note}, Message: "upkeep: two records\n"})
	if err != nil {
		t.Fatal(err)
	}
	if commit != globalTip(t, store) {
		t.Fatalf("commit %s is not global's tip", commit)
	}
	if n := testgit.Run(t, store.Project.StateRepo(), "rev-list", "--count", before.String()+".."+commit.String()); n != "1" {
		t.Errorf("%s commits on global, want 1", n)
	}
	if msg := testgit.Run(t, store.Project.StateRepo(), "log", "-1", "--format=%B", commit.String()); msg != "upkeep: two records" {
		t.Errorf("message %q", msg)
	}
	for _, r := range []*changelog.Record{marker, note} {
		if r.Agent != "lead" || r.Timestamp.IsZero() || !changelog.ValidID(r.ID) || r.ID == orig.ID {
			t.Errorf("not stamped: %+v", r)
		}
		data, err := store.Repo.ReadFile(commit, changelog.RecordPath(r))
		if err != nil {
			t.Fatalf("%s not on global: %v", r.ID, err)
		}
		back, err := changelog.Parse(changelog.RecordPath(r), data)
		if err != nil || back.ID != r.ID || back.Agent != "lead" || back.Archived != r.Archived || back.Supersedes != r.Supersedes {
			t.Errorf("%s on global reads as %+v (%v)", r.ID, back, err)
		}
	}

	// A record whose ID global holds already is refused, and nothing moves.
	again := *note
	again.Body = "Refresh on 401, said again"
	if _, err := store.CommitGlobal(ctx, agent.GlobalChange{Writer: "lead", Records: []*changelog.Record{&again}, Message: "again\n"}); !planqerr.Is(err, planqerr.Exists) ||
		!strings.Contains(err.Error(), "exists on global already") {
		t.Fatalf("a record over an existing one: %v, want Exists", err)
	}
	if got := globalTip(t, store); got != commit {
		t.Errorf("a refused record moved global from %s to %s", commit, got)
	}
}
