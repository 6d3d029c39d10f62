package session

import (
	"context"
	"fmt"
	"strings"

	"github.com/planq-dev/planq/agent"
	"github.com/planq-dev/planq/branchctx"
	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/planqerr"
	"github.com/planq-dev/planq/staterepo"
)

// Saved says what Save committed.
type Saved struct {
	Agent string
	// Commit is the new commit, zero when there was nothing to commit.
	Commit staterepo.Hash
	// Problems are malformed records committed as they were: saving never
	// loses what an agent wrote, however it is written.
	Problems []error
	// RawNotes counts the notes of every agent that wait for curation.
	RawNotes int
	// Kept are the lines of the notes inbox no note may hold: they stay in
	// the inbox (and are saved with it), each naming its line and why.
	Kept []*planqerr.Error
}

// Save commits the pending state of the agent mounted in the project's
// workspace (or the one $PLANQ_AGENT_DIR names), saying why in the commit
// message. Where no agent is mounted there is nothing to save, and that is
// no error.
func (s *Project) Save(ctx context.Context, reason string) (Saved, error) {
	store, err := s.openStore(ctx)
	if err != nil {
		return Saved{}, err
	}
	a, err := store.Resolve("")
	if NoAgent(err) || (err == nil && a.Dir == "") {
		return Saved{}, nil
	}
	if err != nil {
		return Saved{}, err
	}
	// Lines appended to the notes inbox become raw notes first: a session
	// that only ever appended to it still has its notes curated.
	var picked staterepo.Hash
	noted, err := a.PickUpNotes(ctx, agent.WriteOptions{})
	if err != nil {
		return Saved{Agent: a.Name}, err
	}
	if len(noted.Written) > 0 {
		picked = staterepo.NewHash(noted.Written[0].Commit)
	}
	commit, problems, err := a.CommitPending(ctx, reason)
	if commit.IsZero() {
		commit = picked
	}
	saved := Saved{Agent: a.Name, Commit: commit, Problems: problems, Kept: noted.Kept}
	if err != nil {
		return saved, err
	}
	saved.RawNotes, err = store.Records.RawNotes()
	return saved, err
}

// maxCommitFiles bounds the files a code commit's log entry lists.
const maxCommitFiles = 50

// RecordCommit writes the code commit just made in the project's workspace
// (hash, subject, files) as a log entry of the agent mounted there. It
// reports false when no agent is mounted.
func (s *Project) RecordCommit(ctx context.Context) (agent.Written, bool, error) {
	store, err := s.openStore(ctx)
	if err != nil {
		return agent.Written{}, false, err
	}
	p := store.Project
	a, ok, err := store.AgentAt(p.Workspace)
	if err != nil || !ok {
		return agent.Written{}, false, err
	}
	cc, err := staterepo.OpenCode(p.Workspace).LastCommit(ctx)
	if err != nil {
		return agent.Written{}, false, err
	}
	body := fmt.Sprintf("commit %s: %s", cc.Hash[:min(12, len(cc.Hash))], cc.Subject)
	if len(cc.Files) > 0 {
		body += "\n\nFiles:\n- " + strings.Join(cc.Files[:min(maxCommitFiles, len(cc.Files))], "\n- ")
		if len(cc.Files) > maxCommitFiles {
			body += fmt.Sprintf("\n- ... and %d more", len(cc.Files)-maxCommitFiles)
		}
	}
	rec, err := changelog.NewLog(changelog.LogInput{Text: body, Type: changelog.TypeImplement, Status: changelog.StatusCompleted})
	if err != nil {
		return agent.Written{}, false, err
	}
	w, err := a.Write(ctx, rec, agent.WriteOptions{})
	return w, err == nil, err
}

// BranchNote is the context of a code branch and where it came from: the
// agent's own ("agent") or the team's ("global").
type BranchNote struct {
	Context *branchctx.Context
	Source  string
}

// BranchSwitched returns the context of the code branch the project's
// workspace has checked out, as its agent sees it (global's where no agent
// is mounted); nil when the checkout is detached or the branch has none.
func (s *Project) BranchSwitched(ctx context.Context) (*BranchNote, error) {
	h, err := s.handle(ctx)
	if err != nil {
		return nil, err
	}
	code, err := staterepo.CodeHead(h.Project.Workspace)
	if err != nil || code.Branch == "" {
		return nil, err
	}
	a, err := h.Resolve("")
	if err != nil {
		a = h.Global()
	}
	c, source, err := h.BranchContext(a, code.Branch)
	if err != nil || c == nil {
		return nil, err
	}
	return &BranchNote{Context: c, Source: source}, nil
}

// NoAgent reports whether err means no agent is mounted where a session
// action looked: hooks say nothing then.
func NoAgent(err error) bool { return planqerr.Is(err, planqerr.NotFound) }
