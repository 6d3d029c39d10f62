package team

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"sort"
	"strings"
	"time"

	"github.com/planq-dev/planq/agent"
	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/internal/failpoint"
	"github.com/planq-dev/planq/planqerr"
	"github.com/planq-dev/planq/project"
	"github.com/planq-dev/planq/readmodel"
	"github.com/planq-dev/planq/staterepo"
)

// What promote does with a candidate.
const (
	ActionAdd       = "add"       // lands as it is
	ActionDuplicate = "duplicate" // global has the same: a new version of that one cites both
	ActionDisputed  = "disputed"  // global says otherwise on the same subject: lands marked disputed
	ActionBranch    = "branch"    // branch context, merged per file
)

// Candidate is one thing promote would bring into global.
type Candidate struct {
	Action string `json:"action"`
	// ID, Kind and Title describe a record; Path is where it lands.
	ID    string         `json:"id,omitempty"`
	Kind  changelog.Kind `json:"kind,omitempty"`
	Title string         `json:"title"`
	Path  string         `json:"path"`
	// Existing is the global record a duplicate or dispute is about.
	Existing string `json:"existing,omitempty"`

	// record is what lands on global; original is the agent's record it
	// came from (the same one when it lands as it is).
	record, original *changelog.Record
}

// PromoteOptions select what to promote.
type PromoteOptions struct {
	// IDs promotes only these records; empty means every candidate.
	IDs    []string
	DryRun bool
}

// PromoteResult says what promote did (or, on a dry run, would do).
type PromoteResult struct {
	Agent      string      `json:"agent"`
	Candidates []Candidate `json:"candidates"`
	// Commit is global's new tip, "" when nothing changed or on a dry run.
	Commit   string   `json:"commit,omitempty"`
	Previous string   `json:"previous,omitempty"`
	Choices  []Choice `json:"choices,omitempty"`
	// MarkedMerged is true when nothing was new but global now records the
	// agent's tip as merged.
	MarkedMerged bool `json:"marked_merged,omitempty"`
	// Problems are the agent's malformed records, left where they are.
	Problems []string `json:"problems,omitempty"`
}

// Disputed returns the candidates that landed as disputes.
func (r PromoteResult) Disputed() []Candidate { return r.filter(ActionDisputed) }

func (r PromoteResult) filter(action string) []Candidate {
	var out []Candidate
	for _, c := range r.Candidates {
		if c.Action == action {
			out = append(out, c)
		}
	}
	return out
}

// Promote merges agent a's new learnings, decisions and branch context into
// global as a merge commit whose parents are global's tip and the agent's
// tip. It runs entirely in the bare repository: agents keep writing while it
// runs, and what they write after it read their tip waits for the next
// promote. A lost race with another promote or pull is retried from the new
// global, so every record lands exactly once.
func Promote(ctx context.Context, store *agent.Store, a *agent.Agent, opts PromoteOptions) (PromoteResult, error) {
	repo := store.Repo
	res := PromoteResult{Agent: a.Name}
	retry := staterepo.NewRetry(project.GlobalBranch)
	for {
		globalTip, err := repo.Tip(project.GlobalBranch)
		if err != nil {
			return res, err
		}
		agentTip, err := repo.Tip(a.Branch)
		if err != nil {
			return res, err
		}
		plan, err := planPromote(ctx, store, a.Ref, globalTip, agentTip, opts.IDs)
		if err != nil {
			return res, err
		}
		res.Candidates, res.Previous, res.Problems = plan.candidates, globalTip.String(), plan.problems
		if opts.DryRun {
			return res, nil
		}
		tree, choices := plan.globalTree, []Choice(nil)
		if len(plan.candidates) == 0 {
			// Nothing to bring, but the agent's later commits (log entries,
			// notes) are reviewed too: record its tip as merged, so gc can
			// prove it, unless global has it already.
			merged, err := repo.IsAncestor(ctx, agentTip, globalTip)
			if err != nil || merged {
				return res, err
			}
			res.MarkedMerged = true
			// Its uses come along (its later commits carry them): they
			// keep the team's learnings fresh.
			if tree, err = plan.carryUses(repo, tree); err != nil {
				return res, err
			}
		} else if tree, choices, err = plan.tree(repo); err != nil {
			return res, err
		}
		if tree, err = withChangelog(store, tree); err != nil {
			return res, err
		}
		commit, err := repo.WriteCommit(tree, []staterepo.Hash{globalTip, agentTip}, promoteMessage(a.Name, plan.candidates))
		if err != nil {
			return res, err
		}
		failpoint.Hit(failpoint.PromoteMerged)
		err = store.MoveGlobal(ctx, "planq: promote "+a.Name, globalTip, commit)
		if err == nil {
			res.Commit, res.Choices = commit.String(), choices
			return res, nil
		}
		if again, err := retry.Again(ctx, err); !again {
			return res, err
		}
	}
}

// promotePlan is what one promote attempt will write.
type promotePlan struct {
	globalTree staterepo.Hash
	agentTree  staterepo.Hash
	baseTree   staterepo.Hash
	candidates []Candidate
	problems   []string
	files      map[string][]byte // new or rewritten record files
	blobs      map[string]staterepo.Hash
	// usesPath is the agent's uses file: promote carries it to global as
	// the agent has it (only that agent writes it), so the team's shelf
	// lives count every agent's uses.
	usesPath string
	// memories are the edits of global's memories/ (promote_memories.go),
	// a zero hash deleting.
	memories map[string]staterepo.Hash
}

// planPromote finds what promote brings (findCandidates) and checks, as
// CommitGlobal would, the versions it makes of a candidate (a duplicate's
// merged record, a disputed copy): a dry run refuses what the promote would.
func planPromote(ctx context.Context, store *agent.Store, a readmodel.Ref, globalTip, agentTip staterepo.Hash, ids []string) (*promotePlan, error) {
	p, err := findCandidates(ctx, store.Handle, a, globalTip, agentTip, ids)
	if err != nil {
		return nil, err
	}
	for _, c := range p.candidates {
		if c.Action == ActionBranch || c.record == c.original {
			continue
		}
		data, err := store.CheckForGlobal(c.record)
		if err != nil {
			return nil, err
		}
		p.files[c.Path] = data
	}
	return p, nil
}

// findCandidates is the read-only part of a promote: what agent a has that
// global, at globalTip, has not, and what each candidate becomes there. It
// reads through h and writes nothing, so what awaits promotion is known
// without a writer.
func findCandidates(ctx context.Context, h *readmodel.Handle, a readmodel.Ref, globalTip, agentTip staterepo.Hash, ids []string) (*promotePlan, error) {
	repo := h.Git()
	p, err := newPromotePlan(ctx, repo, a, globalTip, agentTip)
	if err != nil {
		return nil, err
	}
	// What global holds, by ID and by subject (for duplicates and
	// disputes), answered from rows; only what the agent has that global
	// does not is decoded.
	global, err := h.Records.Holdings(globalTip)
	if err != nil {
		return nil, err
	}
	mineSet, err := h.Records.Unheld(agentTip, global)
	if err != nil {
		return nil, err
	}
	p.problems = mineSet.ProblemLines()
	wanted := map[string]bool{}
	for _, id := range ids {
		wanted[id] = true
	}
	if p.candidates, err = recordCandidates(global, mineSet.Records, wanted, len(ids) > 0); err != nil {
		return nil, err
	}
	if err := refuseRings(global, p.candidates); err != nil {
		return nil, err
	}
	if len(wanted) > 0 {
		return nil, notNew(wanted, a.Name)
	}
	if len(ids) == 0 {
		branches, err := branchCandidates(repo, p)
		if err != nil {
			return nil, err
		}
		p.candidates = append(p.candidates, branches...)
		memories, err := memoryCandidates(repo, a.Name, p)
		if err != nil {
			return nil, err
		}
		p.candidates = append(p.candidates, memories...)
	}
	return p, nil
}

// newPromotePlan is an empty plan to promote agent a, at agentTip, into
// global at globalTip, with the trees of both and of their merge base.
func newPromotePlan(ctx context.Context, repo staterepo.Reads, a readmodel.Ref, globalTip, agentTip staterepo.Hash) (*promotePlan, error) {
	p := &promotePlan{files: map[string][]byte{}, blobs: map[string]staterepo.Hash{}, usesPath: project.UsesPath(a.Name),
		memories: map[string]staterepo.Hash{}}
	var err error
	if p.globalTree, err = repo.TreeOf(globalTip); err != nil {
		return nil, err
	}
	if p.agentTree, err = repo.TreeOf(agentTip); err != nil {
		return nil, err
	}
	base, ok, err := repo.MergeBase(ctx, globalTip, agentTip)
	if err != nil {
		return nil, err
	}
	if ok {
		if p.baseTree, err = repo.TreeOf(base); err != nil {
			return nil, err
		}
	}
	return p, nil
}

// recordCandidates is what each record of mine becomes on global; with
// only, just those wanted names, each taken out of wanted as found.
func recordCandidates(global *readmodel.Holdings, mine []*changelog.Record, wanted map[string]bool, only bool) ([]Candidate, error) {
	added := map[string]*changelog.Record{} // what this promote adds, by subject, ahead of what global says
	now := time.Now().UTC()
	var out []Candidate
	for _, r := range mine {
		if only && !wanted[r.ID] {
			continue
		}
		delete(wanted, r.ID)
		c, err := candidateOf(global, added, r, now)
		if err != nil {
			return nil, err
		}
		if c.Action == ActionDuplicate {
			added[changelog.SubjectKey(c.record)] = c.record
		} else {
			added[changelog.SubjectKey(r)] = r
		}
		out = append(out, c)
	}
	return out, nil
}

// candidateOf is what r becomes on global: added, a duplicate (global's
// record, citing r too), or disputed, by what holds its subject there
// (added first, then global). Only what has a subject (learnings,
// decisions) is matched by it: a note is added as it is.
func candidateOf(global *readmodel.Holdings, added map[string]*changelog.Record, r *changelog.Record, now time.Time) (Candidate, error) {
	c := Candidate{Action: ActionAdd, ID: r.ID, Kind: r.Kind, Title: r.Headline(), Path: changelog.RecordPath(r), record: r, original: r}
	if r.Supersedes != "" || r.Tombstone || !r.Kind.Spec().HasField(changelog.FieldSubject) {
		return c, nil
	}
	existing, ok := added[changelog.SubjectKey(r)]
	if !ok {
		var err error
		if existing, err = global.About(r); err != nil {
			return c, err
		}
	}
	switch {
	case existing == nil:
	case changelog.ContentKey(existing) == changelog.ContentKey(r):
		merged := cite(existing, r, now)
		c.Action, c.Existing, c.Path, c.record = ActionDuplicate, existing.ID, changelog.RecordPath(merged), merged
	case changelog.Disputes(existing, r):
		disputed := *r
		disputed.Status = changelog.StatusDisputed
		c.Action, c.Existing, c.record = ActionDisputed, existing.ID, &disputed
	}
	return c, nil
}

// notNew refuses the IDs still wanted: none is a new learning or decision
// of the agent.
func notNew(wanted map[string]bool, name string) error {
	missing := make([]string, 0, len(wanted))
	for id := range wanted {
		missing = append(missing, id)
	}
	sort.Strings(missing)
	return planqerr.New(planqerr.NotFound, strings.Join(missing, ", "), "not a new learning or decision of agent %s", name).
		WithHint("'planq context promote --agent %s --dry-run' lists what can be promoted", name)
}

// refuseRings refuses candidates whose versions would supersede each other
// in a ring on global (only a hand-made commit writes one): readers could
// show only one version of it, and every promote would carry it on. The
// error is validate's finding, word for word.
func refuseRings(global *readmodel.Holdings, candidates []Candidate) error {
	landing := make([]*changelog.Record, 0, len(candidates))
	for _, c := range candidates {
		landing = append(landing, c.record)
	}
	rings, err := global.Rings(landing)
	if err != nil || len(rings) == 0 {
		return err
	}
	return planqerr.New(planqerr.Corrupt, rings[0].Path, "%s", rings[0].Problem()).
		WithHint("break the ring, keeping its newest version current: 'planq validate --fix' in the agent's workspace (or give one of these versions no 'supersedes' by hand), then check with 'planq validate'")
}

// cite makes the new version of existing that also cites dup.
func cite(existing, dup *changelog.Record, now time.Time) *changelog.Record {
	merged := *existing
	merged.Sources = append([]changelog.Source(nil), existing.Sources...)
	if len(merged.Sources) == 0 {
		merged.Sources = []changelog.Source{{ID: existing.ID, Agent: existing.Agent}}
	}
	merged.Sources = append(merged.Sources, changelog.Source{ID: dup.ID, Agent: dup.Agent})
	merged.Supersedes, merged.ID, merged.Timestamp = existing.ID, "", time.Time{}
	agent.Stamp(&merged, existing.Agent, now)
	return &merged
}

// branchCandidates finds branch context files the agent changed since its
// last promote (relative to the merge base).
func branchCandidates(repo staterepo.Reads, p *promotePlan) ([]Candidate, error) {
	mine, base, global, err := p.sides(repo, project.BranchesDir)
	if err != nil {
		return nil, err
	}
	var out []Candidate
	for path, blob := range mine {
		if blob == base[path] || blob == global[path] || !project.IsBranchContextPath(path) {
			continue
		}
		out = append(out, Candidate{Action: ActionBranch, Title: project.BranchOfContextPath(path), Path: path})
		p.blobs[path] = blob
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out, nil
}

// sides reads the files under dir (their path to their blob) in the
// agent's tree, the merge base's and global's: the three sides of a
// promote's per-path merge. A missing tree (no merge base yet) has none.
func (p *promotePlan) sides(repo staterepo.Reads, dir string) (mine, base, global map[string]staterepo.Hash, err error) {
	files := func(tree staterepo.Hash) (map[string]staterepo.Hash, error) {
		out := map[string]staterepo.Hash{}
		if tree.IsZero() {
			return out, nil
		}
		fs, err := repo.WalkTree(tree, []string{dir})
		if err != nil {
			return nil, err
		}
		for _, f := range fs {
			out[f.Path] = f.Blob
		}
		return out, nil
	}
	if mine, err = files(p.agentTree); err != nil {
		return nil, nil, nil, err
	}
	if base, err = files(p.baseTree); err != nil {
		return nil, nil, nil, err
	}
	if global, err = files(p.globalTree); err != nil {
		return nil, nil, nil, err
	}
	return mine, base, global, nil
}

// carryUses puts the agent's uses file, as the agent has it, into tree.
// An agent without one leaves tree as it is.
func (p *promotePlan) carryUses(repo *staterepo.Repo, tree staterepo.Hash) (staterepo.Hash, error) {
	h, err := repo.BlobAt(p.agentTree, p.usesPath)
	if errors.Is(err, fs.ErrNotExist) {
		return tree, nil // no uses noted yet
	}
	if err != nil {
		return staterepo.ZeroHash, err
	}
	if have, err := repo.BlobAt(tree, p.usesPath); err == nil && have == h {
		return tree, nil
	}
	return repo.EditTree(tree, map[string]staterepo.Hash{p.usesPath: h})
}

// tree builds global's new tree: records are added as files; branch context
// is merged three-way with the policy of the package doc.
func (p *promotePlan) tree(repo *staterepo.Repo) (staterepo.Hash, []Choice, error) {
	edits, err := p.recordEdits(repo)
	if err != nil {
		return staterepo.ZeroHash, nil, err
	}
	tree, err := repo.EditTree(p.globalTree, edits)
	if err == nil {
		tree, err = p.carryUses(repo, tree)
	}
	if err != nil || len(p.blobs) == 0 {
		return tree, nil, err
	}
	return p.mergeBranchContext(repo, tree)
}

// recordEdits is the blobs the promote puts on global, by path: its
// memories' edits, and each record candidate, as checked or as the agent
// has it.
func (p *promotePlan) recordEdits(repo *staterepo.Repo) (map[string]staterepo.Hash, error) {
	edits := map[string]staterepo.Hash{}
	for path, h := range p.memories {
		edits[path] = h
	}
	for _, c := range p.candidates {
		if c.Action == ActionBranch || c.Action == ActionMemory {
			continue
		}
		var h staterepo.Hash
		var err error
		if data, ok := p.files[c.Path]; ok {
			h, err = repo.WriteBlob(data)
		} else {
			h, err = repo.BlobAt(p.agentTree, c.Path)
		}
		if err != nil {
			return nil, err
		}
		edits[c.Path] = h
	}
	return edits, nil
}

// mergeBranchContext merges the agent's branch context files into tree,
// three-way: a merge of just those files.
func (p *promotePlan) mergeBranchContext(repo *staterepo.Repo, tree staterepo.Hash) (staterepo.Hash, []Choice, error) {
	rs := &resolver{repo: repo}
	ours, err := repo.EditTree(staterepo.ZeroHash, p.blobs)
	if err != nil {
		return staterepo.ZeroHash, nil, err
	}
	baseT, err := p.treeOfSame(repo, p.baseTree)
	if err != nil {
		return staterepo.ZeroHash, nil, err
	}
	theirsT, err := p.treeOfSame(repo, tree)
	if err != nil {
		return staterepo.ZeroHash, nil, err
	}
	merged, err := repo.MergeTrees(baseT, ours, theirsT, rs.resolve)
	if err != nil {
		return staterepo.ZeroHash, nil, err
	}
	files, err := repo.WalkTree(merged, nil)
	if err != nil {
		return staterepo.ZeroHash, nil, err
	}
	final := map[string]staterepo.Hash{}
	for _, f := range files {
		final[f.Path] = f.Blob
	}
	tree, err = repo.EditTree(tree, final)
	return tree, rs.choices, err
}

// treeOfSame is a tree of the files of from at the paths of the agent's
// branch context files.
func (p *promotePlan) treeOfSame(repo *staterepo.Repo, from staterepo.Hash) (staterepo.Hash, error) {
	blobs := map[string]staterepo.Hash{}
	for path := range p.blobs {
		if h, err := repo.BlobAt(from, path); err == nil {
			blobs[path] = h
		}
	}
	return repo.EditTree(staterepo.ZeroHash, blobs)
}

func promoteMessage(agentName string, cs []Candidate) string {
	counts := map[string]int{}
	for _, c := range cs {
		counts[c.Action]++
	}
	memories := ""
	if n := counts[ActionMemory]; n > 0 {
		memories = fmt.Sprintf(", %d memory files", n)
	}
	return fmt.Sprintf("promote %s: %d new, %d duplicate, %d disputed, %d branch context%s\n\nPlanq-Agent: %s\n",
		agentName, counts[ActionAdd], counts[ActionDuplicate], counts[ActionDisputed], counts[ActionBranch], memories, agentName)
}
