package agent

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/planq-dev/planq/branchctx"
	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/internal/failpoint"
	"github.com/planq-dev/planq/planqerr"
	"github.com/planq-dev/planq/staterepo"
)

// WriteOptions tune how a record is written.
type WriteOptions struct {
	// AllowSecret writes a record even though it seems to hold a credential.
	AllowSecret bool
}

// Written says what a write changed, so that it can be cited and undone.
type Written struct {
	ID     string         `json:"id"`
	Kind   changelog.Kind `json:"kind"`
	Path   string         `json:"path"`
	Commit string         `json:"commit"`
	Agent  string         `json:"agent"`
}

// Trailers in planq's commit messages; they let planq find records in
// history without reading trees.
const (
	trailerRecord = "Planq-Record"
	trailerKind   = "Planq-Kind"
	trailerAgent  = "Planq-Agent"
)

// now is the clock records are stamped with.
var now = func() time.Time { return time.Now().UTC() }

// Write stamps rec (ID, time, agent; for a log entry, its parent), checks it,
// and commits it as one new file on the agent branch.
func (a *Agent) Write(ctx context.Context, rec *changelog.Record, opts WriteOptions) (Written, error) {
	// Stamp under the lock, so time order, parent links and commit order agree.
	wt, unlock, err := a.lockedWorktree(ctx)
	if err != nil {
		return Written{}, err
	}
	defer unlock()
	if err := a.checkReferences(rec); err != nil {
		return Written{}, err
	}
	a.stamp(ctx, rec)
	if rec.Kind == changelog.KindLog && rec.Parent == "" {
		if rec.Parent, err = a.previousLogEntry(); err != nil {
			return Written{}, err
		}
	}
	data, err := a.check(rec, opts)
	if err != nil {
		return Written{}, err
	}
	rel := changelog.RecordPath(rec)
	if err := createFile(filepath.Join(a.Dir, filepath.FromSlash(rel)), data); err != nil {
		return Written{}, err
	}
	failpoint.Hit(failpoint.RecordFileWritten)
	uses, usesCommitted := a.flushUses()
	commit, err := wt.CommitFiles(ctx, append([]string{rel}, uses...), commitMessage(rec))
	if err != nil {
		return Written{}, planqerr.New(planqerr.Failure, filepath.Join(a.Dir, rel),
			"record written but not committed: %w", err).
			WithHint("nothing is lost: the file is there; once the cause is gone (another git process holding the index, say), 'planq doctor --fix' commits it")
	}
	usesCommitted()
	return Written{ID: rec.ID, Kind: rec.Kind, Path: rel, Commit: commit.String(), Agent: a.Name}, nil
}

// checkReferences refuses a record that names what does not exist: a
// record it supersedes or depends on, an agent it is addressed to. A
// reference to nothing would be kept forever and mean nothing.
func (a *Agent) checkReferences(rec *changelog.Record) error {
	if rec.To != "" {
		names, err := a.store.AgentNames()
		if err != nil {
			return err
		}
		if !slices.Contains(names, rec.To) {
			return planqerr.New(planqerr.NotFound, "agent "+quote(rec.To), "does not exist, so nothing can be addressed to it").
				WithHint("'planq list' shows the agents; create it first with 'planq create %s', or leave --to out for your own next session", rec.To)
		}
	}
	refs := append([]string{rec.Supersedes}, rec.DependsOn...)
	if rec.Supersedes == "" && len(rec.DependsOn) == 0 {
		return nil
	}
	// A new version is of the kind it replaces: read that kind alone, unless
	// the record depends on others, which may be of any kind.
	var kinds []changelog.Kind
	if len(rec.DependsOn) == 0 {
		kinds = []changelog.Kind{rec.Kind}
	}
	set, err := a.store.Records.All(kinds...)
	if err != nil {
		return err
	}
	known := make(map[string]bool, len(set.Records))
	for _, r := range set.Records {
		known[r.ID] = true
	}
	for i, id := range refs {
		if id == "" || known[id] {
			continue
		}
		what := "record"
		if i == 0 && kinds != nil {
			what = rec.Kind.Noun() // what a new version can replace
		}
		return planqerr.New(planqerr.NotFound, id, "no such %s on global or any agent branch", what).
			WithHint("'planq search WORDS' finds a record's id")
	}
	return nil
}

// fillEvidence applies the evidence default: a learning that names no
// commit is tied to what the agent's code checkout has checked out now (its
// HEAD commit and branch). Without a checkout, or before its first commit,
// the learning carries no commit.
func (a *Agent) fillEvidence(rec *changelog.Record) {
	spec := rec.Kind.Spec()
	if spec == nil || !spec.HasField(changelog.FieldEvidence) || a.Workspace == "" || (rec.Evidence != nil && rec.Evidence.Commit != "") {
		return
	}
	code, err := branchctx.Current(a.Workspace)
	if err != nil || code.Commit == "" {
		return
	}
	if rec.Evidence == nil {
		rec.Evidence = &changelog.Evidence{}
	}
	rec.Evidence.Commit = code.Commit
	if rec.Evidence.Branch == "" {
		rec.Evidence.Branch = code.Branch
	}
}

// lockedWorktree takes the agent's lock and returns its worktree; the
// caller releases the lock.
func (a *Agent) lockedWorktree(ctx context.Context) (*staterepo.Worktree, func(), error) {
	wt, err := a.Worktree()
	if err != nil {
		return nil, nil, err
	}
	unlock, err := a.store.Repo.Lock(ctx, a.Branch)
	if err != nil {
		return nil, nil, err
	}
	return wt, unlock, nil
}

// createFile writes a new file, never replacing one: a record is immutable.
func createFile(path string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("failed to create %s: %w", filepath.Dir(path), err)
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if errors.Is(err, fs.ErrExist) {
		return planqerr.New(planqerr.Exists, path, "a record with this ID exists already").
			WithHint("run the command again: a new ID is drawn each time")
	}
	if err != nil {
		return fmt.Errorf("failed to create %s: %w", path, err)
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return fmt.Errorf("failed to write %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("failed to write %s: %w", path, err)
	}
	return nil
}

func commitMessage(rec *changelog.Record) string {
	title := rec.Title()
	if title == "" {
		title = rec.Decision
	}
	if len(title) > 72 {
		title = title[:69] + "..."
	}
	kind := string(rec.Kind)
	if rec.Type != "" {
		kind += "(" + string(rec.Type) + ")"
	}
	return fmt.Sprintf("%s: %s\n\n%s: %s\n%s: %s\n%s: %s\n", kind, title,
		trailerRecord, rec.ID, trailerKind, rec.Kind, trailerAgent, rec.Agent)
}

// parentSearchDepth bounds the walk back through history for the previous
// log entry; past it planq reads the records themselves.
const parentSearchDepth = 64

// previousLogEntry finds the agent's latest log entry: first through the
// trailers of recent commits (usually the tip), then, for histories written
// by hand, by reading the log records.
func (a *Agent) previousLogEntry() (string, error) {
	h, err := a.store.Repo.Tip(a.Branch)
	if err != nil {
		return "", err
	}
	for i := 0; i < parentSearchDepth; i++ {
		c, err := a.store.Repo.Commit(h)
		if err != nil {
			return "", err
		}
		if id, ok := logTrailer(c.Message, a.Name); ok {
			return id, nil
		}
		if len(c.Parents) == 0 {
			return "", nil
		}
		h = c.Parents[0]
	}
	set, err := a.store.Records.Branch(a.Branch, changelog.KindLog)
	if err != nil {
		return "", err
	}
	recs := set.Records
	for i := len(recs) - 1; i >= 0; i-- {
		if recs[i].Kind == changelog.KindLog && recs[i].Agent == a.Name {
			return recs[i].ID, nil
		}
	}
	return "", nil
}

func logTrailer(message, agent string) (string, bool) {
	var id, kind, who string
	for _, line := range strings.Split(message, "\n") {
		k, v, ok := strings.Cut(line, ": ")
		if !ok {
			continue
		}
		switch k {
		case trailerRecord:
			id = v
		case trailerKind:
			kind = v
		case trailerAgent:
			who = v
		}
	}
	return id, kind == string(changelog.KindLog) && who == agent && changelog.ValidID(id)
}

// CommitPending commits whatever the agent left uncommitted in its worktree,
// validating record files first so a malformed one is reported (it is still
// committed: nothing is ever lost). It returns the commit, or the zero hash
// when the worktree was clean, and the malformed records it saw.
func (a *Agent) CommitPending(ctx context.Context, reason string) (staterepo.Hash, []error, error) {
	wt, unlock, err := a.lockedWorktree(ctx)
	if err != nil {
		return staterepo.ZeroHash, nil, err
	}
	defer unlock()
	_, usesCommitted := a.flushUses() // written into the worktree: CommitAll takes them
	status, err := wt.Status(ctx)
	if err != nil || len(status) == 0 {
		return staterepo.ZeroHash, nil, err
	}
	var problems []error
	for _, line := range status {
		if len(line) < 4 {
			continue
		}
		rel := strings.Trim(line[3:], `"`)
		if !changelog.IsRecordPath(rel) {
			continue
		}
		data, err := os.ReadFile(filepath.Join(a.Dir, rel))
		if err != nil {
			continue // deleted: a deletion is committed as it is
		}
		if _, err := changelog.Parse(rel, data); err != nil {
			problems = append(problems, err)
		}
	}
	commit, err := wt.CommitAll(ctx, fmt.Sprintf("state: %s\n\n%s: %s\n", reason, trailerAgent, a.Name))
	if err == nil {
		usesCommitted()
	}
	return commit, problems, err
}
