package curation

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
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
	"github.com/planq-dev/planq/staterepo"
	"github.com/planq-dev/planq/team"
)

const claudeMD = "# Project\n\n## Build\n\nRun `make`.\n"

// hostile is what no file planq writes may hold: more text than it holds
// (limit: a record's 64 KiB, or a proposed file's 1 MiB), a NUL byte, a
// credential.
var hostile = []struct {
	name string
	text func(limit int) string
	kind planqerr.Kind
}{
	{"oversized", func(limit int) string { return strings.Repeat("planq ", limit/6+1) }, planqerr.Invalid},
	{"NUL byte", func(int) string { return "before\x00after" }, planqerr.Invalid},
	{"credential", func(int) string { return "deploy key AKIA2E0A8F3B244C9986" }, planqerr.Refused},
}

// TestEveryWriteThatReachesGlobalIsChecked writes through every path that
// takes new text to global (the plan, a proposal's text and files, a mulch
// import that promote would carry there) with each hostile text, and holds
// each to a refusal before anything is written: global's tip (and, for the
// import, the agent branch's) does not move.
//
// Promote itself takes no new text: it copies records an agent's writer
// checked (an import among them, refused here before it lands); the
// versions it makes of them, and the states and restores a lead writes,
// are covered by TestEveryVersionWrittenOnGlobalIsChecked.
func TestEveryWriteThatReachesGlobalIsChecked(t *testing.T) {
	ctx := context.Background()
	paths := []struct {
		name  string
		limit int
		write func(t *testing.T, p testproject.Project, notes []string, text string) error
	}{
		{"plan set", changelog.MaxRecordSize, func(_ *testing.T, p testproject.Project, _ []string, text string) error {
			_, err := p.Store.SetPlan(ctx, text, false)
			return err
		}},
		{"propose: diff_summary", changelog.MaxRecordSize, func(_ *testing.T, p testproject.Project, notes []string, text string) error {
			_, err := Propose(ctx, p.Store, p.Code, "lead", Proposal{ProposedFiles: map[string]string{"CLAUDE.md": claudeMD + "Race tests.\n"},
				DiffSummary: text, EntriesUsed: notes[:1]})
			return err
		}},
		{"propose: reason a note is discarded", changelog.MaxRecordSize, func(_ *testing.T, p testproject.Project, notes []string, text string) error {
			_, err := Propose(ctx, p.Store, p.Code, "lead", Proposal{DiffSummary: "nothing to add", EntriesDiscarded: map[string]string{notes[0]: text}})
			return err
		}},
		{"propose: a proposed file", MaxFileSize, func(_ *testing.T, p testproject.Project, notes []string, text string) error {
			_, err := Propose(ctx, p.Store, p.Code, "lead", Proposal{ProposedFiles: map[string]string{"CLAUDE.md": claudeMD + text + "\n"},
				DiffSummary: "race tests", EntriesUsed: notes[:1]})
			return err
		}},
		{"mulch import (then promote)", changelog.MaxRecordSize, func(t *testing.T, p testproject.Project, _ []string, text string) error {
			dir := filepath.Join(t.TempDir(), ".mulch")
			line := `{"type":"convention","classification":"foundational","recorded_at":"2026-11-25T00:56:46.942Z","content":` + jsonString(t, text) + `,"id":"mx-cc606a"}` + "\n"
			if err := os.MkdirAll(filepath.Join(dir, "expertise"), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, "expertise", "auth.jsonl"), []byte(line), 0o644); err != nil {
				t.Fatal(err)
			}
			before := tip(t, p.Store, p.Agent.Branch)
			res, err := lifecycle.ImportMulch(ctx, p.Agent, dir, p.Code, lifecycle.ImportOptions{})
			if err == nil && len(res.Refused) > 0 { // the line is refused, and the others (none here) imported
				err = res.Refused[0].Err()
			}
			if after := tip(t, p.Store, p.Agent.Branch); after != before {
				t.Errorf("the agent branch moved from %s to %s", before, after)
			}
			if err == nil {
				_, err = team.Promote(ctx, p.Store, p.Agent, team.PromoteOptions{})
			}
			return err
		}},
	}
	for _, path := range paths {
		for _, h := range hostile {
			t.Run(path.name+"/"+h.name, func(t *testing.T) {
				p := testproject.New(t, map[string]string{"CLAUDE.md": claudeMD})
				notes := rawNotes3(t, p)
				before := tip(t, p.Store, project.GlobalBranch)
				err := path.write(t, p, notes, h.text(path.limit))
				if !planqerr.Is(err, h.kind) {
					t.Errorf("got %v, want a %v error", err, h.kind)
				}
				if after := tip(t, p.Store, project.GlobalBranch); after != before {
					t.Errorf("global moved from %s to %s", before, after)
				}
			})
		}
	}
}

// TestEveryVersionWrittenOnGlobalIsChecked writes through every path that
// makes a new version of a record global or a branch holds: the states of
// notes and proposals, a restore, promote's merged duplicate. Each takes
// its text from a record a reader read, so it holds no NUL byte (no reader
// reads one: changelog.Parse refuses it), and a credential it held it may
// carry and adds none (TestANewVersionMayCarryACredentialItsPredecessorHad);
// what it can do is grow past what a record holds, from a record at the
// limit. Each is refused before anything is written. Prune's archive
// records carry none of the text of what they archive: pruning the record
// at the limit is written.
func TestEveryVersionWrittenOnGlobalIsChecked(t *testing.T) {
	ctx := context.Background()
	for _, c := range []struct {
		name string
		// write makes the record at the limit where the path finds it, and
		// returns the write under test.
		write func(t *testing.T, p testproject.Project) func() error
	}{
		{"propose: a note's proposed state", func(t *testing.T, p testproject.Project) func() error {
			n, err := changelog.NewNote(changelog.NoteInput{Text: "overlay tests need --race", Workspace: "auth", AgentKind: "claude"})
			if err != nil {
				t.Fatal(err)
			}
			writeAtLimit(t, p, n)
			return func() error {
				_, err := Propose(ctx, p.Store, p.Code, "lead", Proposal{ProposedFiles: map[string]string{"CLAUDE.md": claudeMD + "Race tests.\n"},
					DiffSummary: "race tests", EntriesUsed: []string{n.ID}})
				return err
			}
		}},
		{"proposals dismiss: the proposal's state", func(t *testing.T, p testproject.Project) func() error {
			id := proposeAtLimit(t, p)
			return func() error {
				_, err := Dismiss(ctx, p.Store, "lead", id)
				return err
			}
		}},
		{"proposals apply: the proposal's state", func(t *testing.T, p testproject.Project) func() error {
			id := proposeAtLimit(t, p)
			head := testgit.Run(t, p.Code, "rev-parse", "HEAD")
			// Refused before the code repository is touched, too.
			return func() error {
				_, err := Apply(ctx, p.Store, p.Code, "lead", id, ApplyOptions{})
				if after := testgit.Run(t, p.Code, "rev-parse", "HEAD"); after != head {
					t.Errorf("the code repository moved from %s to %s", head, after)
				}
				if status := testgit.Run(t, p.Code, "status", "--porcelain", "--untracked-files=no"); status != "" {
					t.Errorf("the code checkout changed: %s", status)
				}
				return err
			}
		}},
		{"archive restore", func(t *testing.T, p testproject.Project) func() error {
			l := learningAtLimit(t, p)
			if _, err := team.Promote(ctx, p.Store, p.Agent, team.PromoteOptions{}); err != nil {
				t.Fatal(err)
			}
			res, err := lifecycle.Prune(ctx, p.Store, lifecycle.PruneOptions{Now: time.Now().AddDate(1, 0, 0), Writer: "lead"})
			if err != nil || len(res.Archived) != 1 {
				t.Fatalf("prune of the learning at the limit: %+v, %v", res, err)
			}
			return func() error {
				_, err := lifecycle.Restore(ctx, p.Store, l.ID, "lead")
				return err
			}
		}},
		{"promote: a duplicate's merged version", func(t *testing.T, p testproject.Project) func() error {
			learningAtLimit(t, p)
			if _, err := team.Promote(ctx, p.Store, p.Agent, team.PromoteOptions{}); err != nil {
				t.Fatal(err)
			}
			learningAtLimit(t, p) // the same learning again: promote cites it on the first
			return func() error {
				_, err := team.Promote(ctx, p.Store, p.Agent, team.PromoteOptions{})
				return err
			}
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := testproject.New(t, map[string]string{"CLAUDE.md": claudeMD})
			write := c.write(t, p)
			before := tip(t, p.Store, project.GlobalBranch)
			err := write()
			if !planqerr.Is(err, planqerr.Invalid) || !strings.Contains(err.Error(), "a record holds at most") {
				t.Errorf("got %v, want an Invalid error: a record holds at most 64 KiB", err)
			}
			if after := tip(t, p.Store, project.GlobalBranch); after != before {
				t.Errorf("global moved from %s to %s", before, after)
			}
		})
	}
}

// writeAtLimit pads rec's body so that it renders to a record a few bytes
// under the most a record holds (fewer than a next version adds: a
// supersedes line), and writes it on the agent branch.
func writeAtLimit(t *testing.T, p testproject.Project, rec *changelog.Record) {
	t.Helper()
	at := time.Now().UTC().Truncate(time.Second) // a time of fixed length
	padTo(t, rec, p.Agent.Name, at, changelog.MaxRecordSize-8)
	if _, err := p.Agent.WriteMany(context.Background(), []*changelog.Record{rec}, "at the limit", agent.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
}

// padTo stamps rec and pads its body until it renders to size bytes.
func padTo(t *testing.T, rec *changelog.Record, by string, at time.Time, size int) {
	t.Helper()
	agent.Stamp(rec, by, at)
	data, err := changelog.Render(rec)
	if err != nil {
		t.Fatal(err)
	}
	rec.Body += "\n\n" + strings.Repeat("x", size-len(data)-2)
	rec.ID = ""
	agent.Stamp(rec, by, at)
	if data, err = changelog.Render(rec); err != nil || len(data) != size {
		t.Fatalf("padded to %d bytes, want %d (%v)", len(data), size, err)
	}
}

func learningAtLimit(t *testing.T, p testproject.Project) *changelog.Record {
	t.Helper()
	l, err := changelog.NewLearning(changelog.LearningInput{Text: "Tokens expire after 15 minutes", Type: changelog.TypeConvention, Domain: "auth"})
	if err != nil {
		t.Fatal(err)
	}
	writeAtLimit(t, p, l)
	return l
}

// proposeAtLimit keeps on global a proposal whose record is a few bytes
// under the limit, and returns its ID.
func proposeAtLimit(t *testing.T, p testproject.Project) string {
	t.Helper()
	notes := rawNotes3(t, p)
	prop := Proposal{ProposedFiles: map[string]string{"CLAUDE.md": claudeMD + "Race tests.\n"}, EntriesUsed: notes[:1]}
	// The record's size but for its summary and its time, whose length
	// varies by a few bytes: measured with an empty summary at a time of
	// the longest form.
	f, err := checkFile(p.Code, "CLAUDE.md", prop.ProposedFiles["CLAUDE.md"], p.Store.Project.Config.InstructionFiles())
	if err != nil {
		t.Fatal(err)
	}
	f.Blob = staterepo.BlobHash([]byte(prop.ProposedFiles["CLAUDE.md"])).String()
	probe, err := changelog.NewProposal(changelog.ProposalInput{Summary: "x", Files: []changelog.ProposedFile{f}, Used: prop.EntriesUsed})
	if err != nil {
		t.Fatal(err)
	}
	agent.Stamp(probe, "lead", time.Date(2026, 11, 25, 9, 0, 0, 123456789, time.UTC))
	data, err := changelog.Render(probe)
	if err != nil {
		t.Fatal(err)
	}
	// Under the limit by less than the supersedes line a state adds,
	// however the time the proposal gets is written.
	prop.DiffSummary = strings.Repeat("x", changelog.MaxRecordSize-12-len(data)+1)
	rec, err := Propose(context.Background(), p.Store, p.Code, "lead", prop)
	if err != nil {
		t.Fatal(err)
	}
	return rec.ID
}

// rawNotes3 writes three raw notes on the agent branch and returns their IDs.
func rawNotes3(t *testing.T, p testproject.Project) []string {
	t.Helper()
	var ids []string
	for _, text := range []string{"overlay tests need --race", "the linter wants gofumpt", "build with make"} {
		w, err := p.Agent.Note(context.Background(), text, "", "claude", agent.WriteOptions{})
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, w.Written[len(w.Written)-1].ID)
	}
	return ids
}

func tip(t *testing.T, store *agent.Store, branch string) staterepo.Hash {
	t.Helper()
	h, err := store.Repo.Tip(branch)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

func jsonString(t *testing.T, s string) string {
	t.Helper()
	data, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}
