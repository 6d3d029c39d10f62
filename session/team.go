package session

import (
	"context"
	"time"

	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/internal/userlayer"
	"github.com/planq-dev/planq/lifecycle"
	"github.com/planq-dev/planq/project"
	"github.com/planq-dev/planq/team"
)

// What the team's capabilities (promote, push, pull, remotes, gc, prune,
// restore) hand their front ends.
type (
	// Candidate is one thing a promote brings into global, or would.
	Candidate = team.Candidate
	// Awaiting is an agent's records that wait for a promote.
	Awaiting = team.Awaiting
	// GCResult is what a gc archived and deleted, or would.
	GCResult = team.GCResult
	// ArchivedBranch is an agent branch gc removed and kept.
	ArchivedBranch = team.Archived
	// RemoteChange is what adding a remote changed.
	RemoteChange = team.RemoteChange
	// PruneResult is what a prune archived, and its commit on global.
	PruneResult = lifecycle.PruneResult
	// Copied is one record a copy between a project and the user layer
	// carried over.
	Copied = userlayer.Copied
)

// A promote's actions on a candidate beside adding it: the same record
// global has lands once, one that contradicts global lands disputed.
const (
	PromoteDuplicate = team.ActionDuplicate
	PromoteDisputed  = team.ActionDisputed
)

// CopiedAdd is the action of a record a copy between layers adds (the
// other: present, carried over before).
const CopiedAdd = userlayer.ActionAdd

// DefaultRemote is the team remote push and pull use when none is named.
const DefaultRemote = team.DefaultRemote

// GlobalBranch is the branch of the state repository the team keeps.
const GlobalBranch = project.GlobalBranch

// AgentBranch is the state repository's branch of agent name.
func AgentBranch(name string) string { return project.AgentBranch(name) }

// Name is the project's name, as .planq/config gives it.
func (s *Project) Name() (string, error) {
	p, err := s.project()
	if err != nil {
		return "", err
	}
	return p.Config.Project, nil
}

// AgentName is the agent a write acts for, found: the one named, else the
// one mounted where the service was opened.
func (s *Project) AgentName(ctx context.Context, name string) (string, error) {
	a, err := s.agent(ctx, name)
	if err != nil {
		return "", err
	}
	return a.Name, nil
}

// Writer names who a lead's write on global (a prune, a restore, a
// proposal's decision) is recorded as: the agent mounted here, else
// global itself.
func (s *Project) Writer(ctx context.Context) string {
	if a, err := s.agent(ctx, ""); err == nil && a.Branch != project.GlobalBranch {
		return a.Name
	}
	return project.GlobalBranch
}

// writer is Writer, or the agent named: an MCP caller says who it is.
func (s *Project) writer(ctx context.Context, name string) (string, error) {
	if name == "" {
		return s.Writer(ctx), nil
	}
	r, err := s.reader(ctx, name)
	return r.Name, err
}

// Promotion is what waits for a lead: each agent's records not yet
// promoted, and what is disputed on global, records and articles.
type Promotion struct {
	Agents           []Awaiting          `json:"agents"`
	Disputed         []*changelog.Record `json:"disputed"`
	DisputedArticles []ArticleDispute    `json:"disputed_articles"`
}

// Promotion reads what waits for a lead.
func (s *Project) Promotion(ctx context.Context) (Promotion, error) {
	p := Promotion{Disputed: []*changelog.Record{}}
	h, err := s.handle(ctx)
	if err != nil {
		return p, err
	}
	if p.Agents, err = team.AwaitingPromotion(ctx, h); err != nil {
		return p, err
	}
	set, err := h.Records.All(changelog.KindLearning, changelog.KindDecision)
	if err != nil {
		return p, err
	}
	for _, rec := range set.Current() {
		if rec.Status == changelog.StatusDisputed {
			p.Disputed = append(p.Disputed, rec)
		}
	}
	p.DisputedArticles, err = s.KBDisputes(ctx)
	return p, err
}

// PromoteToUserInput says which of the project's records to copy into the
// user layer.
type PromoteToUserInput struct {
	// IDs are learnings and decisions, of any branch.
	IDs []string
	// KeepPaths keeps what names the project's code (anchors, evidence,
	// the checkout's paths); without it they are taken out.
	KeepPaths bool
	// DryRun reports what would land, changes nothing and makes no layer.
	DryRun bool
}

// PromotedToUser is what a promote to the user layer did.
type PromotedToUser struct {
	userlayer.Promoted
	// Made is the user layer's state repository when this promote made
	// it: the front end says where.
	Made string `json:"-"`
}

// PromoteToUser copies records of the project into the user layer, made
// on first use (see userlayer.Promote). A private project is refused
// before anything is made.
func (s *Project) PromoteToUser(ctx context.Context, in PromoteToUserInput) (PromotedToUser, error) {
	var out PromotedToUser
	h, err := s.handle(ctx)
	if err != nil {
		return out, err
	}
	if err := userlayer.CheckPromotable(h.Project); err != nil {
		return out, err
	}
	l, made, err := s.layer(ctx, !in.DryRun) // a dry run makes no layer
	out.Made = made
	if err != nil {
		return out, err
	}
	if l != nil {
		defer func() { _ = l.Close() }() // a cache not saved costs only speed
	}
	out.Promoted, err = userlayer.Promote(ctx, h, l, userlayer.PromoteOptions{IDs: in.IDs, KeepPaths: in.KeepPaths, DryRun: in.DryRun})
	return out, err
}

// AddRemote adds remote name at url to the state repository; origin's URL
// also goes into .planq/config. A remote at another URL is replaced only
// when replace says so.
func (s *Project) AddRemote(ctx context.Context, name, url string, replace bool) (RemoteChange, error) {
	store, err := s.openStore(ctx)
	if err != nil {
		return RemoteChange{}, err
	}
	return team.AddRemote(ctx, store.Project, store.Repo, name, url, replace)
}

// Remotes are the state repository's remotes by name, with origin from
// .planq/config where the repository has none.
func (s *Project) Remotes(ctx context.Context) (map[string]string, error) {
	store, err := s.openStore(ctx)
	if err != nil {
		return nil, err
	}
	remotes, err := store.Repo.Remotes(ctx)
	if err != nil {
		return nil, err
	}
	if url := store.Project.Config.Remote; url != "" && remotes[team.DefaultRemote] == "" {
		remotes[team.DefaultRemote] = url
	}
	return remotes, nil
}

// GC deletes the agent branches global holds whose worktree is gone, each
// kept under an archive ref first, and tidies the repository.
func (s *Project) GC(ctx context.Context, dryRun bool) (GCResult, error) {
	store, err := s.openStore(ctx)
	if err != nil {
		return GCResult{}, err
	}
	return team.GC(ctx, store, dryRun)
}

// Archives lists the agent branches gc kept, oldest first.
func (s *Project) Archives(ctx context.Context) ([]ArchivedBranch, error) {
	store, err := s.openStore(ctx)
	if err != nil {
		return nil, err
	}
	return team.Archives(store)
}

// RestoreAgent brings back the agent branch of name that gc archived.
func (s *Project) RestoreAgent(ctx context.Context, name string) (ArchivedBranch, error) {
	store, err := s.openStore(ctx)
	if err != nil {
		return ArchivedBranch{}, err
	}
	return team.Restore(ctx, store, name)
}

// PruneInput says what a prune archives.
type PruneInput struct {
	// DryRun lists what would be archived and writes nothing.
	DryRun bool
	// Stale also archives the learnings whose anchored code files are all
	// gone.
	Stale bool
}

// Pruned is what a prune did, and the knowledge base update after it.
type Pruned struct {
	PruneResult
	// Knowledge is what the update did, nil when none ran.
	Knowledge *KnowledgeSummary `json:"-"`
}

// Prune archives global's learnings past their shelf life, as Writer; the
// knowledge base follows (see attach): an article that still lists an
// archived learning would tell every reader what the team set aside.
func (s *Project) Prune(ctx context.Context, in PruneInput) (Pruned, error) {
	store, err := s.openStore(ctx)
	if err != nil {
		return Pruned{}, err
	}
	s.takeStep()
	res, err := lifecycle.Prune(ctx, store, lifecycle.PruneOptions{Now: time.Now(), DryRun: in.DryRun, Writer: s.Writer(ctx),
		Stale: in.Stale, CodeDir: store.Project.Root})
	return Pruned{PruneResult: res, Knowledge: s.takeStep()}, err
}

// Unarchived is what restoring an archived learning did: the new version
// that supersedes its archive record.
type Unarchived = lifecycle.Restored

// RestoredLearning is what restoring an archived learning did, and the
// knowledge base update after it.
type RestoredLearning struct {
	Unarchived
	Knowledge *KnowledgeSummary `json:"-"`
}

// Restore brings back learning id that a prune archived, as Writer; the
// knowledge base follows (see attach).
func (s *Project) Restore(ctx context.Context, id string) (RestoredLearning, error) {
	store, err := s.openStore(ctx)
	if err != nil {
		return RestoredLearning{}, err
	}
	s.takeStep()
	r, err := lifecycle.Restore(ctx, store, id, s.Writer(ctx))
	return RestoredLearning{Unarchived: r, Knowledge: s.takeStep()}, err
}
