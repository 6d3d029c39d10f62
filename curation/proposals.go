package curation

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"github.com/planq-dev/planq/internal/plural"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/aymanbagabas/go-udiff"
	"github.com/planq-dev/planq/internal/atomicfile"

	"github.com/planq-dev/planq/agent"
	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/planqerr"
	"github.com/planq-dev/planq/project"
	"github.com/planq-dev/planq/readmodel"
	"github.com/planq-dev/planq/staterepo"
)

// A proposal's states. Stale and broken are no stored state: a pending
// proposal whose files changed since it was made is stale; one whose files
// cannot be read as planq reads them (a file that became a symbolic link
// or a directory, say) is broken, and its Problem says why.
const (
	StatePending   = "pending"
	StateStale     = "stale"
	StateBroken    = "broken"
	StateApplied   = "applied"
	StateDismissed = "dismissed"
)

// States lists a proposal's states, in the order a review takes them.
var States = []string{StatePending, StateStale, StateBroken, StateApplied, StateDismissed}

// ErrStale is in the error of an apply refused because a file changed
// since the proposal was made: each front end says how to dismiss it.
var ErrStale = errors.New("the proposal is stale")

// Who is how a proposal's writer is shown: the lead writes on global, and
// is shown as the lead, not as the branch.
func Who(writer string) string {
	if writer == project.GlobalBranch {
		return "lead"
	}
	return writer
}

// View is a proposal as a reviewer sees it.
type View struct {
	// ID is the ID the proposal was made under, which names it for good;
	// Version is its current version's (a state change is a new version).
	ID        string            `json:"id"`
	Version   string            `json:"version"`
	State     string            `json:"state"`
	Agent     string            `json:"agent"`
	Time      time.Time         `json:"time"`
	Decided   *time.Time        `json:"decided,omitempty"`
	DecidedBy string            `json:"decided_by,omitempty"`
	Summary   string            `json:"summary"`
	Files     []FileView        `json:"files"`
	Used      []string          `json:"entries_used"`
	Discarded map[string]string `json:"entries_discarded,omitempty"`
	Additions int               `json:"additions"`
	// Problem says why a broken proposal cannot be shown or applied (or,
	// for a decided one shown, why its diff is missing).
	Problem string `json:"problem,omitempty"`
}

// Paths are the proposal's files, in order.
func (v View) Paths() []string {
	paths := make([]string, len(v.Files))
	for i, f := range v.Files {
		paths[i] = f.Path
	}
	return paths
}

// FileView is one file of a proposal: whether it changed since, and, for
// one proposal shown, the proposed content and the diff.
type FileView struct {
	Path      string `json:"path"`
	Additions int    `json:"additions"`
	// Changed: the file is no longer what the proposal was made from.
	Changed  bool   `json:"changed,omitempty"`
	Proposed string `json:"proposed,omitempty"`
	Diff     string `json:"diff,omitempty"`
	// Problem says why the file cannot be read as planq reads it.
	Problem string `json:"problem,omitempty"`
}

// chains are the proposals' versions, each first version with its newest.
type chains struct {
	byID   map[string]*changelog.Record
	next   map[string]*changelog.Record
	firsts []*changelog.Record
}

func loadChains(recs []*changelog.Record) chains {
	c := chains{byID: map[string]*changelog.Record{}, next: map[string]*changelog.Record{}}
	for _, r := range recs {
		c.byID[r.ID] = r
		if r.Supersedes != "" {
			c.next[r.Supersedes] = r
		}
	}
	for _, r := range recs {
		if r.Supersedes == "" || c.byID[r.Supersedes] == nil {
			c.firsts = append(c.firsts, r)
		}
	}
	return c
}

// newest follows r's versions to the latest.
func (c chains) newest(r *changelog.Record) *changelog.Record {
	for seen := 0; c.next[r.ID] != nil && seen < len(c.byID); seen++ {
		r = c.next[r.ID]
	}
	return r
}

// first follows r's versions back to the one first written.
func (c chains) first(r *changelog.Record) *changelog.Record {
	for seen := 0; r.Supersedes != "" && c.byID[r.Supersedes] != nil && seen < len(c.byID); seen++ {
		r = c.byID[r.Supersedes]
	}
	return r
}

// List gives every proposal, newest first, in its state now: a pending
// one whose files changed in the checkout at codeRoot is stale.
func List(ctx context.Context, store *readmodel.Handle, codeRoot string) ([]View, error) {
	return list(ctx, store, codeRoot, false)
}

// ListWithDiffs is List with each pending or stale proposal's files as Show
// gives them (proposed content and diff), from one read of the proposals:
// what a review shows at once.
func ListWithDiffs(ctx context.Context, store *readmodel.Handle, codeRoot string) ([]View, error) {
	return list(ctx, store, codeRoot, true)
}

func list(_ context.Context, store *readmodel.Handle, codeRoot string, diffs bool) ([]View, error) {
	set, err := store.Records.All(changelog.KindProposal)
	if err != nil {
		return nil, err
	}
	c := loadChains(set.Records)
	out := make([]View, 0, len(c.firsts))
	for _, f := range c.firsts {
		newest := c.newest(f)
		out = append(out, view(store, codeRoot, f, newest, diffs && newest.Status == changelog.StatusPending))
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Time.After(out[j].Time) })
	return out, nil
}

// Pending counts the proposals that wait for a person: pending, stale or
// broken.
func Pending(views []View) int {
	n := 0
	for _, v := range views {
		if v.Undecided() {
			n++
		}
	}
	return n
}

// Undecided reports whether the proposal waits for a person: pending,
// stale or broken.
func (v View) Undecided() bool {
	return v.State == StatePending || v.State == StateStale || v.State == StateBroken
}

// Touched are the proposals an apply or dismiss of proposal id (any of its
// versions' IDs) changes, in their state now, newest first: itself, and
// every undecided proposal that shares a file with it (a sibling an apply
// made stale); and how many proposals wait for a person.
func Touched(ctx context.Context, store *readmodel.Handle, codeRoot, id string) ([]View, int, error) {
	_, first, _, err := find(store, id)
	if err != nil {
		return nil, 0, err
	}
	views, err := List(ctx, store, codeRoot)
	if err != nil {
		return nil, 0, err
	}
	var paths []string
	for _, v := range views {
		if v.ID == first.ID {
			paths = v.Paths()
		}
	}
	out := []View{}
	for _, v := range views {
		if v.ID == first.ID || v.Undecided() && slices.ContainsFunc(v.Paths(), func(p string) bool { return slices.Contains(paths, p) }) {
			out = append(out, v)
		}
	}
	return out, Pending(views), nil
}

// Show gives one proposal, by any of its versions' IDs, with each file's
// proposed content and unified diff against the file as it is now.
func Show(_ context.Context, store *readmodel.Handle, codeRoot, id string) (View, error) {
	_, first, newest, err := find(store, id)
	if err != nil {
		return View{}, err
	}
	return view(store, codeRoot, first, newest, true), nil
}

func find(store *readmodel.Handle, id string) (chains, *changelog.Record, *changelog.Record, error) {
	set, err := store.Records.All(changelog.KindProposal)
	if err != nil {
		return chains{}, nil, nil, err
	}
	c := loadChains(set.Records)
	r := c.byID[id]
	if r == nil {
		return chains{}, nil, nil, planqerr.New(planqerr.NotFound, id, "no proposal has this ID").WithHint("planq proposals list")
	}
	return c, c.first(r), c.newest(r), nil
}

// view is proposal first as its version r has it. What cannot be read of a
// file (a file that became a symbolic link, a proposed blob missing) is the
// view's Problem, and a pending proposal with one is broken: one proposal
// that cannot be read never hides the others.
func view(store *readmodel.Handle, codeRoot string, first, r *changelog.Record, full bool) View {
	v := View{ID: first.ID, Version: r.ID, State: string(r.Status), Agent: first.Agent, Time: first.Timestamp, Summary: r.Body,
		Used: r.EntriesUsed, Discarded: r.EntriesDiscarded, Files: []FileView{}}
	if v.Used == nil {
		v.Used = []string{}
	}
	if r != first {
		at := r.Timestamp
		v.Decided, v.DecidedBy = &at, r.Agent
	}
	pending := r.Status == changelog.StatusPending
	var problems []string
	for _, f := range r.Files {
		fv := FileView{Path: f.Path, Additions: f.Additions}
		v.Additions += f.Additions
		if pending || full {
			if err := fileNow(store, codeRoot, f, &fv, full); err != nil {
				fv.Problem = strings.TrimPrefix(err.Error(), "proposal: ")
				problems = append(problems, fv.Problem)
			}
			if fv.Changed && pending {
				v.State = StateStale
			}
		}
		v.Files = append(v.Files, fv)
	}
	if len(problems) > 0 {
		v.Problem = strings.Join(problems, "; ")
		if pending {
			v.State = StateBroken
		}
	}
	return v
}

// fileNow fills fv with whether f's file changed since the proposal, and,
// when full, the proposed content and the diff from the file as it is.
func fileNow(store *readmodel.Handle, codeRoot string, f changelog.ProposedFile, fv *FileView, full bool) error {
	old, exists, err := readInside(codeRoot, f.Path)
	if err != nil {
		return err
	}
	base := ""
	if exists {
		base = SHA256(old)
	}
	fv.Changed = base != f.Base
	if !full {
		return nil
	}
	proposed, err := store.Git().ReadBlob(staterepo.NewHash(f.Blob))
	if err != nil {
		return fmt.Errorf("failed to read the proposed %s: %w", f.Path, err)
	}
	fv.Proposed = string(proposed)
	fv.Diff = udiff.Unified("a/"+f.Path, "b/"+f.Path, string(old), fv.Proposed)
	return nil
}

// Applied is what apply did.
type Applied struct {
	Proposal string `json:"proposal"`
	Commit   string `json:"commit"`
	// Branch is the code branch the commit is on.
	Branch string `json:"branch"`
	// AgentWorkspace names the agent whose workspace the checkout is, when
	// it is one and not the main checkout: the commit is on that
	// workspace's branch, not on MainBranch, the main checkout's, until
	// someone merges it.
	AgentWorkspace string   `json:"agent_workspace,omitempty"`
	MainBranch     string   `json:"main_branch,omitempty"`
	Files          []string `json:"files"`
	Additions      int      `json:"additions"`
	Removals       int      `json:"removals,omitempty"`
	// Recorded says the files were in the code repository already, as
	// proposed (an apply cut short after its commit): only the state was
	// written now.
	Recorded bool `json:"recorded,omitempty"`
}

// ApplyOptions are a person's say in an apply.
type ApplyOptions struct {
	// Edited replaces the proposed content of the files it names (a
	// person's Edit & Apply).
	Edited map[string]string
	// AllowRemovals lets an edit remove or reword lines the file holds
	// now. A proposal only adds; without it, an edit that takes a line
	// away (an editor that saved an empty file) is refused.
	AllowRemovals bool
}

// Apply writes a pending proposal's files into the checkout at codeRoot
// and commits them, and only them, in one commit; it never pushes. Then the
// proposal is applied, its used notes applied and its discarded notes
// dismissed, in one commit on global.
//
// It refuses, writing nothing: a proposal that is not pending, files that
// changed since the proposal (stale) or that have uncommitted or staged
// changes, a checkout in the middle of a rebase, merge or the like, a
// detached HEAD, and an edit that removes lines unless opts allow it.
// One apply runs at a time per state repository; the second finds the
// proposal applied.
func Apply(ctx context.Context, store *agent.Store, codeRoot, who, id string, opts ApplyOptions) (Applied, error) {
	unlock, err := store.Repo.Lock(ctx, "curation")
	if err != nil {
		return Applied{}, err
	}
	defer unlock()
	_, first, r, err := find(store.Handle, id)
	if err != nil {
		return Applied{}, err
	}
	id = first.ID
	if err := applicable(r, id, opts.Edited); err != nil {
		return Applied{}, err
	}
	code := staterepo.OpenCode(codeRoot)
	head, err := checkCheckout(codeRoot, code)
	if err != nil {
		return Applied{}, err
	}
	paths := make([]string, len(r.Files))
	for i, f := range r.Files {
		paths[i] = f.Path
	}
	if err := checkUnchanged(ctx, code, paths); err != nil {
		return Applied{}, err
	}
	done := Applied{Proposal: id, Files: paths, Branch: head.Branch}
	done.AgentWorkspace, done.MainBranch = agentWorkspace(store, codeRoot)
	writes, inPlace, err := planWrites(store, codeRoot, r, opts, &done)
	if err != nil {
		return Applied{}, err
	}
	applied, err := appliedStates(store, r, who)
	if err != nil {
		return Applied{}, err
	}
	switch {
	case inPlace == len(r.Files):
		done.Recorded = true
		done.Commit = head.Commit
	case inPlace > 0:
		return Applied{}, planqerr.New(planqerr.Refused, r.ID, "some of its files are in the code repository as proposed and some are not").
			WithHint("commit or revert those files by hand, then dismiss or apply again")
	default:
		if done.Commit, err = commitWrites(ctx, code, paths, writes, commitMessage(r, done)); err != nil {
			return Applied{}, err
		}
	}
	if _, err := record(ctx, store, r, applied); err != nil {
		return done, fmt.Errorf("commit %s landed in the code repository, but failed to record proposal %s as applied (planq proposals apply %s records it): %w",
			short(done.Commit), id, id, err)
	}
	return done, nil
}

// appliedStates is the records that mark r applied, checked before the
// code repository is touched: a state global refuses would leave the files
// committed and the proposal pending.
func appliedStates(store *agent.Store, r *changelog.Record, who string) ([]*changelog.Record, error) {
	applied, err := states(store, r, changelog.StatusApplied, who)
	if err != nil {
		return nil, err
	}
	for _, rec := range applied {
		if _, err := store.CheckForGlobal(rec); err != nil {
			return nil, err
		}
	}
	return applied, nil
}

// applicable refuses proposal r (first recorded as id) unless it is
// pending, changes a file, and edited names only its files, as text.
func applicable(r *changelog.Record, id string, edited map[string]string) error {
	if r.Status != changelog.StatusPending {
		return planqerr.New(planqerr.Exists, id, "is %s already (%s)", r.Status, r.ID)
	}
	if len(r.Files) == 0 {
		return planqerr.New(planqerr.Invalid, id, "changes no file: it only discards notes").
			WithHint("planq proposals dismiss %s", r.ID)
	}
	for p := range edited {
		if !slices.ContainsFunc(r.Files, func(f changelog.ProposedFile) bool { return f.Path == p }) {
			return planqerr.New(planqerr.Invalid, p, "is not a file of proposal %s", r.ID)
		}
		if err := textFile(p, edited[p]); err != nil {
			return err
		}
	}
	return nil
}

// checkCheckout refuses a checkout in the middle of a rebase, merge or the
// like, or on a detached HEAD; else it returns its HEAD.
func checkCheckout(codeRoot string, code *staterepo.CodeRepo) (staterepo.Head, error) {
	what, err := code.InProgress()
	if err != nil {
		return staterepo.Head{}, err
	}
	if what != "" {
		return staterepo.Head{}, planqerr.New(planqerr.Refused, codeRoot, "is in the middle of %s", what).
			WithHint("finish it or abort it, then apply again")
	}
	// A commit on a detached HEAD is on no branch: the next checkout leaves
	// it behind, while the proposal would say applied.
	head, err := staterepo.CodeHead(codeRoot)
	if err != nil {
		return staterepo.Head{}, err
	}
	if head.Branch == "" {
		return staterepo.Head{}, planqerr.New(planqerr.Refused, codeRoot, "has a detached HEAD (%s): a commit here would be on no branch", short(head.Commit)).
			WithHint("check out a branch first (git switch BRANCH, or git switch -c BRANCH to start one here), then apply again")
	}
	return head, nil
}

// checkUnchanged refuses paths with uncommitted or staged changes.
func checkUnchanged(ctx context.Context, code *staterepo.CodeRepo, paths []string) error {
	changes, err := code.PathChanges(ctx, paths)
	if err != nil {
		return err
	}
	if len(changes) > 0 {
		return planqerr.New(planqerr.Refused, strings.Join(paths, ", "), "has uncommitted or staged changes: %s", strings.Join(changes, "; ")).
			WithHint("commit or stash them, then apply again")
	}
	return nil
}

// fileWrite is one file an apply writes: its content before and after.
type fileWrite struct {
	path, full string
	old, new   []byte
	existed    bool
}

// planWrites is the writes proposal r makes in the checkout at codeRoot,
// counted in done, and how many of its files are there as proposed
// already (committed by an apply cut short). It refuses a file changed
// since the proposal, and an edit that removes lines unless opts allow it.
func planWrites(store *agent.Store, codeRoot string, r *changelog.Record, opts ApplyOptions, done *Applied) ([]fileWrite, int, error) {
	var writes []fileWrite
	inPlace := 0
	for _, f := range r.Files {
		old, exists, err := readInside(codeRoot, f.Path)
		if err != nil {
			return nil, 0, err
		}
		proposed, err := store.Git().ReadBlob(staterepo.NewHash(f.Blob))
		if err != nil {
			return nil, 0, fmt.Errorf("failed to read the proposed %s: %w", f.Path, err)
		}
		content, ok := opts.Edited[f.Path]
		if !ok {
			content = string(proposed)
		}
		base := ""
		if exists {
			base = SHA256(old)
		}
		switch {
		case base == f.Base:
		case !ok && exists && bytes.Equal(old, proposed):
			inPlace++ // committed by an apply cut short
			continue
		default:
			return nil, 0, planqerr.New(planqerr.Refused, f.Path, "changed since proposal %s was made: %w", r.ID, ErrStale).
				WithHint("planq proposals dismiss %s, then planq curate to propose again from the file as it is", r.ID)
		}
		adds, dels := counts(string(old), content)
		if dels > 0 && !opts.AllowRemovals {
			return nil, 0, planqerr.New(planqerr.Invalid, f.Path, "applying it would remove %s of the file's %d (and add %d); a proposal only adds",
				plural.Of(dels, "line"), len(lines(string(old))), adds).
				WithHint("keep the file's lines, or remove them on purpose: planq proposals apply %s --edit --allow-removals (on the review page, tick Allow removals)", done.Proposal)
		}
		done.Additions += adds
		done.Removals += dels
		writes = append(writes, fileWrite{path: f.Path, full: filepath.Join(codeRoot, filepath.FromSlash(f.Path)), old: old, new: []byte(content), existed: exists})
	}
	return writes, inPlace, nil
}

// commitWrites writes the files and commits them, and only them, in one
// commit; on a failure it puts the files back as they were.
func commitWrites(ctx context.Context, code *staterepo.CodeRepo, paths []string, writes []fileWrite, message string) (string, error) {
	for _, w := range writes {
		if err := writeFile(w.full, w.new); err != nil {
			restore(ctx, code, paths, writes)
			return "", err
		}
	}
	commit, err := code.CommitOnly(ctx, paths, message)
	if err != nil {
		restore(ctx, code, paths, writes)
		return "", err
	}
	return commit, nil
}

// restore puts the files of writes back as they were, and unstages paths.
func restore(ctx context.Context, code *staterepo.CodeRepo, paths []string, writes []fileWrite) {
	for _, w := range writes {
		if w.existed {
			_ = atomicfile.WriteFile(w.full, w.old, 0o644)
		} else {
			_ = os.Remove(w.full)
		}
	}
	_ = code.Unstage(context.WithoutCancel(ctx), paths)
}

// agentWorkspace names the agent whose workspace the checkout at codeRoot
// is, and the main checkout's branch, when codeRoot is a linked worktree
// of the code repository (not its main checkout) with an agent mounted;
// else "".
func agentWorkspace(store *agent.Store, codeRoot string) (name, mainBranch string) {
	co, err := project.FindCheckout(codeRoot)
	if err != nil || co.MainRoot == "" || filepath.Clean(co.MainRoot) == filepath.Clean(co.Root) {
		return "", ""
	}
	ref, ok, err := store.AgentAt(codeRoot)
	if err != nil || !ok {
		return "", ""
	}
	if head, err := staterepo.CodeHead(co.MainRoot); err == nil {
		mainBranch = head.Branch
	}
	return ref.Name, mainBranch
}

// Dismiss marks a pending proposal dismissed, and every note it cites
// dismissed, in one commit on global. The code repository is not touched.
func Dismiss(ctx context.Context, store *agent.Store, who, id string) (string, error) {
	unlock, err := store.Repo.Lock(ctx, "curation")
	if err != nil {
		return "", err
	}
	defer unlock()
	_, _, r, err := find(store.Handle, id)
	if err != nil {
		return "", err
	}
	if r.Status != changelog.StatusPending {
		return "", planqerr.New(planqerr.Exists, id, "is %s already (%s)", r.Status, r.ID)
	}
	return decide(ctx, store, r, changelog.StatusDismissed, who)
}

// decide writes the proposal's next version in state status, and each of
// its notes' next version (see states).
func decide(ctx context.Context, store *agent.Store, r *changelog.Record, status changelog.Status, who string) (string, error) {
	recs, err := states(store, r, status, who)
	if err != nil {
		return "", err
	}
	return record(ctx, store, r, recs)
}

// states are the proposal's next version in state status, first, and each
// of its notes' next version: applied for the notes used by an applied
// proposal, dismissed for the rest; stamped, so they can be checked before
// they are written.
func states(store *agent.Store, r *changelog.Record, status changelog.Status, who string) ([]*changelog.Record, error) {
	notes, err := store.Records.All(changelog.KindNote)
	if err != nil {
		return nil, err
	}
	nc := loadChains(notes.Records)
	now := time.Now().UTC()
	next := *r
	next.Status, next.Supersedes, next.Path = status, r.ID, ""
	next.ID, next.Agent, next.Timestamp = "", "", time.Time{}
	agent.Stamp(&next, who, now)
	recs := []*changelog.Record{&next}
	cited := append(slices.Clone(r.EntriesUsed), sortedKeys(r.EntriesDiscarded)...)
	for _, id := range cited {
		n := nc.byID[id]
		if n == nil {
			continue // a note no branch holds any more: nothing to mark
		}
		n = nc.newest(n)
		if n.Tombstone || n.Status != changelog.StatusProposed {
			continue
		}
		state := changelog.StatusDismissed
		if status == changelog.StatusApplied && slices.Contains(r.EntriesUsed, id) {
			state = changelog.StatusApplied
		}
		recs = append(recs, NoteState(n, state, who, now))
	}
	return recs, nil
}

// record writes states, the proposal r's next version and its notes', on
// global in one commit, and returns the proposal's.
func record(ctx context.Context, store *agent.Store, r *changelog.Record, states []*changelog.Record) (string, error) {
	next := states[0]
	_, err := store.CommitGlobal(ctx, agent.GlobalChange{Writer: next.Agent, Records: states,
		Message: fmt.Sprintf("proposal %s %s: %s", r.ID, next.Status, filesPhrase(r.Files))})
	if err != nil {
		return "", err
	}
	return next.ID, nil
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// counts is how many lines new adds to old, and how many of old's it drops.
func counts(old, new string) (adds, dels int) {
	for _, e := range udiff.Lines(old, new) {
		adds += len(lines(e.New))
		dels += len(lines(old[e.Start:e.End]))
	}
	return adds, dels
}

func commitMessage(r *changelog.Record, done Applied) string {
	subject := fmt.Sprintf("Add %s to %s from curated agent notes", plural.Of(done.Additions, "line"), strings.Join(done.Files, ", "))
	if done.Removals > 0 {
		subject = fmt.Sprintf("Add %s, remove %s, in %s from curated agent notes", plural.Of(done.Additions, "line"),
			plural.Of(done.Removals, "line"), strings.Join(done.Files, ", "))
	}
	return fmt.Sprintf("%s\n\n%s\n\nPlanq-Proposal: %s\n", subject, strings.TrimSpace(r.Body), r.ID)
}

// textFile refuses what an instruction file may not hold; the check is
// agent's, the words are the instruction file's.
func textFile(p, content string) error {
	return agent.CheckTextFile(p, []byte(content), "an instruction file", "instruction files")
}

func writeFile(full string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
		return fmt.Errorf("failed to create %s: %w", filepath.Dir(full), err)
	}
	mode := os.FileMode(0o644)
	if info, err := os.Stat(full); err == nil {
		mode = info.Mode().Perm()
	} else if !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("failed to read %s: %w", full, err)
	}
	if err := atomicfile.WriteFile(full, data, mode); err != nil {
		return fmt.Errorf("failed to write %s: %w", full, err)
	}
	return nil
}

func short(h string) string {
	if len(h) > 12 {
		return h[:12]
	}
	return h
}
