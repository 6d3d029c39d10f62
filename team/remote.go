package team

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/planq-dev/planq/agent"
	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/internal/failpoint"
	"github.com/planq-dev/planq/internal/secrets"
	"github.com/planq-dev/planq/planqerr"
	"github.com/planq-dev/planq/project"
	"github.com/planq-dev/planq/staterepo"
)

// DefaultRemote is the remote that .planq/config's remote URL is known by.
const DefaultRemote = "origin"

// Where planq keeps state on a remote and in the local repository: see
// project's layout.
const (
	remoteGlobal    = project.RemoteGlobalRef
	ownerConfigKey  = "planq.owner"
	maxPushAttempts = 8
)

var localGlobalRef = project.BranchRef(project.GlobalBranch)

func trackingGlobal(remote string) string { return project.TrackingGlobalRef(remote) }

// ResolveRemote returns the URL of remote, registering .planq/config's
// remote as origin the first time it is needed. A URL written by hand
// into either whose transport planq never runs (fd::, ext::) is refused
// before git runs.
func ResolveRemote(ctx context.Context, p *project.Project, repo *staterepo.Repo, remote string) (string, error) {
	if err := project.ValidateName("remote", remote); err != nil {
		return "", err
	}
	url, err := repo.RemoteURL(ctx, remote)
	if err != nil {
		return "", err
	}
	if url != "" {
		return url, project.CheckStoredRemote("remote "+remote, url, "the state repository's config ("+repo.Path+")",
			fmt.Sprintf("point it at a repository: planq state remote add %s URL --replace", remote))
	}
	if remote == DefaultRemote && p.Config.Remote != "" {
		if err := checkConfigRemote(p); err != nil {
			return "", err
		}
		return p.Config.Remote, SetRemoteURL(ctx, repo, remote, p.Config.Remote)
	}
	return "", planqerr.New(planqerr.NotFound, "remote "+remote, "is not configured").
		WithHint("add it with 'planq state remote add %s URL', or set remote: in .planq/config", remote)
}

// checkConfigRemote refuses .planq/config's remote when its transport is
// one planq never runs: a clone of someone else's code brings its config.
func checkConfigRemote(p *project.Project) error {
	return project.CheckStoredRemote("remote "+DefaultRemote, p.Config.Remote, project.ConfigPath,
		fmt.Sprintf("point remote: in %s at the team's repository, or replace it: planq state remote add %s URL --replace", project.ConfigPath, DefaultRemote))
}

// SetRemoteURL registers remote at url. When it had another URL (or none),
// what this repository remembers of the remote's refs
// (refs/planq/remotes/<remote>/) is dropped first: it is another
// repository's, and a push leasing on it would be refused for ever.
func SetRemoteURL(ctx context.Context, repo *staterepo.Repo, remote, url string) error {
	current, err := repo.RemoteURL(ctx, remote)
	if err != nil || current == url {
		return err
	}
	if err := forgetRefs(ctx, repo, project.TrackingRefPrefix+remote+"/", "planq: remote "+remote+" changed"); err != nil {
		return err
	}
	return repo.SetRemote(ctx, remote, url)
}

// forgetRefs deletes the refs under prefix, each only if it is still
// where it was read (a fetch that moved one meanwhile saw the remote: it
// is kept).
func forgetRefs(ctx context.Context, repo *staterepo.Repo, prefix, reason string) error {
	refs, err := repo.Refs(prefix)
	if err != nil || len(refs) == 0 {
		return err
	}
	updates := make([]staterepo.RefUpdate, 0, len(refs))
	for ref, h := range refs {
		updates = append(updates, staterepo.RefUpdate{Ref: ref, Old: h})
	}
	if err := repo.UpdateRefs(ctx, reason, updates); err != nil && !errors.Is(err, staterepo.ErrRefMoved) {
		return err
	}
	return nil
}

// RemoteChange says what AddRemote changed.
type RemoteChange struct {
	// Registered is true when the state repository got the remote or a new URL.
	Registered bool
	// Config is true when .planq/config got the URL (origin: the team remote).
	Config bool
}

// AddRemote registers remote at url in the state repository. Origin is the
// team remote: its URL also goes into .planq/config, so that a clone of the
// code finds the team's memory. An existing remote at another URL is only
// replaced when replace says so.
func AddRemote(ctx context.Context, p *project.Project, repo *staterepo.Repo, name, url string, replace bool) (RemoteChange, error) {
	var res RemoteChange
	if err := checkNewRemote(p, name, url); err != nil {
		return res, err
	}
	current, err := repo.RemoteURL(ctx, name)
	if err != nil {
		return res, err
	}
	if name == DefaultRemote && current == "" {
		current = p.Config.Remote
	}
	if current != "" && current != url && !replace {
		return res, planqerr.New(planqerr.Exists, "remote "+name, "exists already, at %s", current).
			WithHint("replace it: planq state remote add %s %s --replace", name, url)
	}
	if registered, _ := repo.RemoteURL(ctx, name); registered != url {
		if err := SetRemoteURL(ctx, repo, name, url); err != nil {
			return res, err
		}
		res.Registered = true
	}
	if name == DefaultRemote && p.Config.Remote != url {
		cfg := p.Config
		cfg.Remote = url
		if err := project.SaveConfig(p.Root, cfg); err != nil {
			return res, err
		}
		p.Config = cfg
		res.Config = true
	}
	return res, nil
}

// checkNewRemote refuses a remote name planq does not take, and a URL that
// is empty, holds a credential or is no remote of the code.
func checkNewRemote(p *project.Project, name, url string) error {
	if err := project.ValidateName("remote", name); err != nil {
		return err
	}
	if strings.TrimSpace(url) == "" {
		return planqerr.New(planqerr.Invalid, "remote "+name, "has an empty URL").
			WithHint("give the team remote's URL: ssh, https or a path, as git takes it")
	}
	// Any remote, not only origin: a URL kept in the state repository's
	// config is printed by 'remote list' and in logs all the same.
	if err := project.CheckRemoteCredential(url, "planq state remote add "+name+" %s"); err != nil {
		return err
	}
	return project.CheckRemoteURL(p.Workspace, url)
}

// InitFromRemote creates the project's state repository from the team's
// remote when .planq/config names one: global comes from the remote, so a
// new machine never starts an empty history beside the team's. A remote
// that has no planq state yet gets a fresh global (this machine is first).
// An unreachable remote is an error and leaves nothing behind.
func InitFromRemote(ctx context.Context, p *project.Project) (created, fetched bool, err error) {
	if err := checkConfigRemote(p); err != nil {
		return false, false, err
	}
	created, err = staterepo.InitWith(ctx, p.StateRepo(), func(r *staterepo.Repo) error {
		if err := r.SetRemote(ctx, DefaultRemote, p.Config.Remote); err != nil {
			return err
		}
		_, ferr := r.Fetch(ctx, DefaultRemote, "+"+remoteGlobal+":"+trackingGlobal(DefaultRemote), remoteGlobal+":"+localGlobalRef)
		switch {
		case ferr == nil:
			fetched = true
			theirs, err := r.RefTip(trackingGlobal(DefaultRemote))
			if err != nil {
				return err
			}
			if ok, err := IsPlanqState(r, theirs); err != nil || !ok {
				if err == nil {
					err = notPlanqState(DefaultRemote, theirs, p.StateRepo())
				}
				return err // nothing is left behind
			}
			if name, err := ProjectOf(r, theirs); err != nil || name != "" && name != p.Config.Project {
				if err == nil {
					err = planqerr.New(planqerr.Refused, "remote "+DefaultRemote, "holds the global of project %q, not of this project %q; nothing was created", name, p.Config.Project).
						WithHint("check the team remote's URL (--remote, or remote: in %s): it is another project's", project.ConfigPath)
				}
				return err
			}
			return nil
		case planqerr.Is(ferr, planqerr.NotFound):
			return createGlobal(ctx, r, p.Config.Project)
		default:
			return ferr
		}
	})
	return created, fetched, err
}

// PullResult says what a pull did.
type PullResult struct {
	Remote string `json:"remote"`
	// Outcome is one of up-to-date, fast-forward, merged, ahead, empty.
	Outcome string   `json:"outcome"`
	Before  string   `json:"before"`
	After   string   `json:"after"`
	Choices []Choice `json:"choices,omitempty"`
	Agents  int      `json:"agents,omitempty"`
	// Project is the project the remote's global names: "" when it names
	// none (made before planq named it) or has no global.
	Project string `json:"project,omitempty"`
}

// PullOptions choose what a pull takes.
type PullOptions struct {
	// Agents also fetches teammates' agent branches, read only.
	Agents bool
	// AllowUnrelated merges a global that shares no history with ours (two
	// machines that each started planq before they shared a remote), or
	// that names another project.
	AllowUnrelated bool
	// Regenerate, when set, regenerates files of the merged tree that are
	// made from others, as changelog.md is: never merged (the knowledge
	// base's index; team does not know how it is made).
	Regenerate func(tree staterepo.Hash) (staterepo.Hash, error)
	// pushing says the pull is a push's: its refusals name push.
	pushing bool
}

// Pull fetches the team's global from remote and merges it into global: a
// fast-forward when possible, else a three-way, per-path merge committed
// with both tips as parents. The fetch moves only the remote's tracking
// ref: global moves once the fetched global is checked, through the
// writer of global (agent.Store.MoveGlobal). With agents it also fetches
// teammates' agent branches, read only, under
// refs/planq/remotes/<remote>/agents/.
func Pull(ctx context.Context, store *agent.Store, remote string, opts PullOptions) (PullResult, error) {
	repo := store.Repo
	res := PullResult{Remote: remote}
	if _, err := ResolveRemote(ctx, store.Project, repo, remote); err != nil {
		return res, err
	}
	before, err := repo.Tip(project.GlobalBranch)
	if err != nil {
		return res, err
	}
	res.Before = before.String()
	if found, err := fetchGlobal(ctx, repo, remote, opts.Agents); err != nil {
		return res, err
	} else if !found {
		res.Outcome, res.After = "empty", res.Before
		return res, nil
	}
	failpoint.Hit(failpoint.PullFetched)
	if opts.Agents {
		refs, _ := repo.Refs(project.TrackingAgentsRefPrefix(remote))
		res.Agents = len(refs)
	}
	theirs, err := repo.RefTip(trackingGlobal(remote))
	if err != nil {
		return res, err
	}
	pl := &pull{ctx: ctx, store: store, remote: remote, opts: opts, before: before, theirs: theirs}
	if res.Project, err = pl.check(); err != nil {
		return res, err
	}
	return pl.merge(res)
}

// fetchGlobal fetches remote's global (and with agents, its agent
// branches), and says whether it has one. When it has none (emptied, or
// made anew) what was remembered of it is forgotten: a push leasing on it
// would be refused for ever.
func fetchGlobal(ctx context.Context, repo *staterepo.Repo, remote string, agents bool) (bool, error) {
	specs := []string{"+" + remoteGlobal + ":" + trackingGlobal(remote)}
	if agents {
		specs = append(specs, "+"+project.RemoteAgentsRefPrefix+"*:"+project.TrackingAgentsRefPrefix(remote)+"*")
	}
	_, err := repo.Fetch(ctx, remote, specs...)
	if !planqerr.Is(err, planqerr.NotFound) {
		return err == nil, err
	}
	return false, forgetRefs(ctx, repo, trackingGlobal(remote), "planq: remote "+remote+" has no global")
}

// pull is one pull of the fetched global theirs into global, which was at
// before.
type pull struct {
	ctx            context.Context
	store          *agent.Store
	remote         string
	opts           PullOptions
	before, theirs staterepo.Hash
}

// again is the command that takes a global the pull refuses.
func (pl *pull) again() string {
	if pl.opts.pushing {
		return "planq state push --allow-unrelated " + pl.remote
	}
	return "planq state pull --allow-unrelated " + pl.remote
}

// check refuses a fetched global that is not planq state, or, unless
// allowed, is another project's not merged before; it returns the project
// it names.
func (pl *pull) check() (string, error) {
	repo := pl.store.Repo
	if ok, err := IsPlanqState(repo, pl.theirs); err != nil || !ok {
		if err == nil {
			err = notPlanqState(pl.remote, pl.theirs, repo.Path)
		}
		return "", err
	}
	name, err := ProjectOf(repo, pl.theirs)
	if err != nil {
		return "", err
	}
	refusal := otherProject(pl.store.Project, pl.remote, name, "merged", pl.again())
	if refusal == nil || pl.opts.AllowUnrelated {
		return name, nil
	}
	// A global merged before (on purpose) brings nothing new.
	taken, err := repo.IsAncestor(pl.ctx, pl.theirs, pl.before)
	if err != nil {
		return name, err
	}
	if !taken {
		return name, refusal
	}
	return name, nil
}

// merge brings global up to theirs: nothing to do, a fast-forward, or a
// merge commit, tried again while global moves.
func (pl *pull) merge(res PullResult) (PullResult, error) {
	retry := staterepo.NewRetry(project.GlobalBranch)
	for {
		ours, err := pl.store.Repo.Tip(project.GlobalBranch)
		if err != nil {
			return res, err
		}
		res.After = ours.String()
		done, err := pl.settled(ours, &res)
		if err == nil && !done {
			err = pl.mergeInto(ours, &res)
		}
		if err == nil {
			return res, nil
		}
		if again, err := retry.Again(pl.ctx, err); !again {
			return res, err
		}
	}
}

// mergeInto commits the merge of theirs into global at ours.
func (pl *pull) mergeInto(ours staterepo.Hash, res *PullResult) error {
	if err := pl.checkRelated(ours); err != nil {
		return err
	}
	commit, choices, err := mergeCommits(pl.ctx, pl.store.Repo, ours, pl.theirs, "pull "+pl.remote, pl.finish)
	if err != nil {
		return err
	}
	failpoint.Hit(failpoint.PullMerged)
	if err := pl.store.MoveGlobal(pl.ctx, "planq: pull "+pl.remote, ours, commit); err != nil {
		return err
	}
	res.Outcome, res.After, res.Choices = "merged", commit.String(), choices
	return nil
}

// settled says whether global at ours has theirs already, or has it now by
// a fast-forward, with the outcome in res: up to date, fast-forward, or
// ahead. false: the two have to be merged.
func (pl *pull) settled(ours staterepo.Hash, res *PullResult) (bool, error) {
	if ours == pl.theirs {
		res.Outcome = "up-to-date"
		return true, nil
	}
	repo := pl.store.Repo
	behind, err := repo.IsAncestor(pl.ctx, ours, pl.theirs)
	if err != nil {
		return true, err
	}
	if !behind {
		ahead, err := repo.IsAncestor(pl.ctx, pl.theirs, ours)
		if ahead {
			res.Outcome = "ahead"
		}
		return ahead || err != nil, err
	}
	if err := pl.store.MoveGlobal(pl.ctx, "planq: pull "+pl.remote+" (fast-forward)", ours, pl.theirs); err != nil {
		return true, err
	}
	res.Outcome, res.After = "fast-forward", pl.theirs.String()
	if pl.opts.AllowUnrelated && res.Project != pl.store.Project.Config.Project {
		// Another project's global, taken whole: it is ours now.
		tip, err := nameGlobal(pl.ctx, pl.store)
		res.After = tip.String()
		return true, err
	}
	return true, nil
}

// checkRelated refuses, unless allowed, to merge a global that shares no
// history with ours.
func (pl *pull) checkRelated(ours staterepo.Hash) error {
	if pl.opts.AllowUnrelated {
		return nil
	}
	_, related, err := pl.store.Repo.MergeBase(pl.ctx, ours, pl.theirs)
	if err != nil || related {
		return err
	}
	return planqerr.New(planqerr.Refused, "remote "+pl.remote, "its global shares no history with this one; nothing was merged").
		WithHint("if both are planq state that started apart (two machines that ran planq init before sharing a remote), merge them: %s", pl.again())
}

// finish turns the merged tree into the one committed: this project's
// name, the regenerated files, and changelog.md.
func (pl *pull) finish(tree staterepo.Hash) (staterepo.Hash, error) {
	tree, err := withProject(pl.store.Repo, pl.store.Project, tree)
	if err != nil {
		return staterepo.ZeroHash, err
	}
	if pl.opts.Regenerate != nil {
		if tree, err = pl.opts.Regenerate(tree); err != nil {
			return staterepo.ZeroHash, err
		}
	}
	return withChangelog(pl.store, tree)
}

// mergeCommits builds the merge commit of ours and theirs (ours first).
//
// finish, when given, turns the merged tree into the one committed: it
// regenerates the generated files, which are never merged.
func mergeCommits(ctx context.Context, repo *staterepo.Repo, ours, theirs staterepo.Hash, what string, finish func(staterepo.Hash) (staterepo.Hash, error)) (staterepo.Hash, []Choice, error) {
	base, ok, err := repo.MergeBase(ctx, ours, theirs)
	if err != nil {
		return staterepo.ZeroHash, nil, err
	}
	baseTree := staterepo.ZeroHash // unrelated histories merge as two additions
	if ok {
		if baseTree, err = repo.TreeOf(base); err != nil {
			return staterepo.ZeroHash, nil, err
		}
	}
	oursTree, err := repo.TreeOf(ours)
	if err != nil {
		return staterepo.ZeroHash, nil, err
	}
	theirsTree, err := repo.TreeOf(theirs)
	if err != nil {
		return staterepo.ZeroHash, nil, err
	}
	rs := &resolver{repo: repo}
	tree, err := repo.MergeTrees(baseTree, oursTree, theirsTree, rs.resolve)
	if err != nil {
		return staterepo.ZeroHash, nil, err
	}
	if finish != nil {
		if tree, err = finish(tree); err != nil {
			return staterepo.ZeroHash, nil, err
		}
	}
	commit, err := repo.WriteCommit(tree, []staterepo.Hash{ours, theirs}, "planq: "+what+"\n")
	return commit, rs.choices, err
}

// PushResult says what a push did.
type PushResult struct {
	Remote string `json:"remote"`
	Global string `json:"global"`
	// Pulls counts the merges needed because teammates pushed first.
	Pulls  int      `json:"pulls"`
	Agents []string `json:"agents"`
}

// PushOptions choose what a push publishes.
type PushOptions struct {
	// Agents also publishes this machine's agent branches.
	Agents bool
	// AllowSecret publishes records that look like credentials: the person
	// pushing says they are none.
	AllowSecret bool
	// KeepsNoCredential is a store that may hold none (the user layer):
	// a writer's allow_secret excuses nothing it would publish.
	KeepsNoCredential bool
	// AllowUnrelated merges, when the remote's global must be pulled first,
	// one that shares no history with ours or names another project.
	AllowUnrelated bool
	// Regenerate is PullOptions.Regenerate, for the merges of a push.
	Regenerate func(tree staterepo.Hash) (staterepo.Hash, error)
}

// Push publishes global to remote, with a lease on the remote value it last
// saw: if a teammate pushed since, it pulls, merges and tries again, so it
// never overwrites anyone's push. With agents it also publishes this
// machine's agent branches under a namespace of their own. Records that look
// like credentials stop the push before anything is sent.
func Push(ctx context.Context, store *agent.Store, remote string, opts PushOptions) (PushResult, error) {
	res := PushResult{Remote: remote, Agents: []string{}}
	if _, err := ResolveRemote(ctx, store.Project, store.Repo, remote); err != nil {
		return res, err
	}
	if _, err := nameGlobal(ctx, store); err != nil {
		return res, err
	}
	ps := &push{ctx: ctx, store: store, remote: remote, opts: opts, res: &res}
	var agentSpecs []string
	if opts.Agents {
		var err error
		if agentSpecs, err = ps.agentSpecs(); err != nil {
			return res, err
		}
	}
	if err := ps.pushGlobal(); err != nil {
		return res, err
	}
	if len(agentSpecs) > 0 {
		failpoint.Hit(failpoint.PushAgentsPending)
		if err := store.Repo.PushForce(ctx, remote, agentSpecs...); err != nil {
			return res, err
		}
	}
	return res, nil
}

// push is one push to remote; res is what it did.
type push struct {
	ctx    context.Context
	store  *agent.Store
	remote string
	opts   PushOptions
	res    *PushResult
}

// scan refuses, unless the push allows it, files of tip (new since since)
// that look like credentials; see scanOutgoing.
func (ps *push) scan(tip, since staterepo.Hash, also ...staterepo.Hash) error {
	if ps.opts.AllowSecret {
		return nil
	}
	return scanOutgoing(ps.store, !ps.opts.KeepsNoCredential, tip, since, also...)
}

// pullFirst brings in what the remote has that the lease did not know. A
// remote found empty merges nothing: the pull forgot the lease, and the
// next attempt pushes as the first push.
func (ps *push) pullFirst() error {
	pulled, err := Pull(ps.ctx, ps.store, ps.remote, PullOptions{AllowUnrelated: ps.opts.AllowUnrelated, Regenerate: ps.opts.Regenerate, pushing: true})
	if err != nil || pulled.Outcome == "empty" {
		return err
	}
	ps.res.Pulls++
	return nil
}

// agentSpecs is the refspecs that publish this machine's agent branches,
// each scanned before anything is sent, global included. What global says
// excuses too: an agent branch keeps the pending proposal or the record it
// forked with after global dismissed or retracted it.
func (ps *push) agentSpecs() ([]string, error) {
	repo := ps.store.Repo
	owner, err := ownerID(ps.ctx, repo)
	if err != nil {
		return nil, err
	}
	branches, err := repo.Branches(project.AgentBranchPrefix)
	if err != nil {
		return nil, err
	}
	global, err := repo.Tip(project.GlobalBranch)
	if err != nil {
		return nil, err
	}
	var specs []string
	for b, tip := range branches {
		if err := ps.scan(tip, staterepo.ZeroHash, global); err != nil {
			return nil, err
		}
		name := strings.TrimPrefix(b, project.AgentBranchPrefix)
		specs = append(specs, "+"+project.BranchRef(b)+":"+project.RemoteAgentRef(owner, name))
		ps.res.Agents = append(ps.res.Agents, owner+"/"+name)
	}
	sort.Strings(ps.res.Agents)
	return specs, nil
}

// pushGlobal pushes global with a lease on what the remote had when last
// fetched, pulling first whenever the remote has what global has not.
func (ps *push) pushGlobal() error {
	repo := ps.store.Repo
	for attempt := 1; attempt < maxPushAttempts; attempt++ {
		ours, err := repo.Tip(project.GlobalBranch)
		if err != nil {
			return err
		}
		lease, err := repo.RefTip(trackingGlobal(ps.remote))
		if err != nil && !planqerr.Is(err, planqerr.NotFound) {
			return err
		}
		if merged, err := ps.leaseMerged(ours, lease); err != nil {
			return err
		} else if !merged {
			if err := ps.pullFirst(); err != nil {
				return err
			}
			continue
		}
		if err := ps.scan(ours, lease); err != nil {
			return err
		}
		err = repo.Push(ps.ctx, ps.remote, localGlobalRef+":"+remoteGlobal, remoteGlobal, lease)
		if err == nil {
			failpoint.Hit(failpoint.PushSent)
			ps.res.Global = ours.String()
			// Remember what the remote now has: the next push leases on it.
			return repo.SetRef(ps.ctx, trackingGlobal(ps.remote), ours)
		}
		if !errors.Is(err, staterepo.ErrRemoteMoved) {
			return err
		}
		if err := ps.pullFirst(); err != nil {
			return err
		}
	}
	return planqerr.New(planqerr.Busy, "remote "+ps.remote, "kept moving: %d pushes lost the race", maxPushAttempts).
		WithHint("run 'planq state push' again")
}

// leaseMerged says whether the lease (zero when the remote was never
// fetched) is merged into ours: else the push would drop a teammate's
// work. Merged or not, another project's global is not replaced unless
// asked.
func (ps *push) leaseMerged(ours, lease staterepo.Hash) (bool, error) {
	if lease.IsZero() {
		return true, nil
	}
	repo := ps.store.Repo
	if !ps.opts.AllowUnrelated {
		theirs, err := ProjectOf(repo, lease)
		if err != nil {
			return false, err
		}
		if err := otherProject(ps.store.Project, ps.remote, theirs, "pushed", "planq state push --allow-unrelated "+ps.remote); err != nil {
			return false, err
		}
	}
	return repo.IsAncestor(ps.ctx, lease, ours)
}

// scanOutgoing refuses to publish files that look like credentials, among
// the files of tip that differ from since (everything when zero). A record
// is excused when its writer allowed it (allow_secret, where writers may) or when tip (or a
// commit of also) holds a later version or a retraction of it: the team no
// longer reads it. So is a proposal dismissed or retracted, its record and
// proposed files alike.
func scanOutgoing(store *agent.Store, writersMayAllow bool, tip, since staterepo.Hash, also ...staterepo.Hash) error {
	repo := store.Repo
	known := map[string]staterepo.Hash{}
	if !since.IsZero() {
		old, err := repo.Walk(since, nil, nil)
		if err == nil {
			for _, f := range old {
				known[f.Path] = f.Blob
			}
		}
	}
	files, err := repo.Walk(tip, nil, nil)
	if err != nil {
		return err
	}
	var ex *excuses // read only once a file is suspect
	for _, f := range files {
		if known[f.Path] == f.Blob || !strings.HasSuffix(f.Path, ".md") {
			continue
		}
		data, err := repo.ReadBlob(f.Blob)
		if err != nil {
			return err
		}
		found := secrets.Scan(string(data))
		if len(found) == 0 {
			continue
		}
		if ex == nil {
			if ex, err = excusesOf(store, writersMayAllow, append([]staterepo.Hash{tip}, also...)); err != nil {
				return err
			}
		}
		if ex.excused(f.Path) {
			continue
		}
		return ex.refuse(f.Path, found[0], data)
	}
	return nil
}

// excuses are what tip says about the files that may hold what looks like
// a credential, and about the proposals, for the hint of those that may not.
type excuses struct {
	records map[string]bool // record paths: allowed by their writer, or superseded
	// proposal maps the path of each version of a proposal to its first
	// version's ID, which names it (and its proposed/<id>/ files).
	proposal map[string]string
	// newest is each proposal's current version, by first ID.
	newest map[string]*changelog.Record
}

// excusesOf reads the records of commits, each ID once (the first
// commit's copy first).
func excusesOf(store *agent.Store, writersMayAllow bool, commits []staterepo.Hash) (*excuses, error) {
	var recs []*changelog.Record
	byID := map[string]*changelog.Record{}
	next := map[string]*changelog.Record{} // each record's later version
	for _, c := range commits {
		set, err := store.Records.Commit(c)
		if err != nil {
			return nil, err
		}
		for _, r := range set.Records {
			if byID[r.ID] != nil {
				continue
			}
			byID[r.ID] = r
			recs = append(recs, r)
			if r.Supersedes != "" {
				next[r.Supersedes] = r
			}
		}
	}
	ex := &excuses{records: map[string]bool{}, proposal: map[string]string{}, newest: map[string]*changelog.Record{}}
	for _, r := range recs {
		if r.AllowSecret && writersMayAllow || next[r.ID] != nil {
			ex.records[r.Path] = true
		}
		if r.Kind != changelog.KindProposal || byID[r.Supersedes] != nil {
			continue // not the first version of a proposal
		}
		newest, seen := r, map[string]bool{}
		for v := r; v != nil && !seen[v.ID]; v = next[v.ID] { // a ring ends the walk
			seen[v.ID] = true
			ex.proposal[v.Path] = r.ID
			newest = v
		}
		ex.newest[r.ID] = newest
	}
	return ex, nil
}

// proposalOf is the first ID of the proposal path belongs to: one of its
// versions, or one of its files under proposed/<id>/.
func (ex *excuses) proposalOf(path string) string {
	if id, ok := ex.proposal[path]; ok {
		return id
	}
	if rest, ok := strings.CutPrefix(path, project.ProposedDir+"/"); ok {
		id, _, _ := strings.Cut(rest, "/")
		if ex.newest[id] != nil {
			return id
		}
	}
	return ""
}

// excused reports whether the file at path may go out as it is: a record
// its writer allowed or a later version replaces, or anything of a
// proposal that was dismissed or retracted, which no one will apply.
func (ex *excuses) excused(path string) bool {
	if ex.records[path] {
		return true
	}
	if id := ex.proposalOf(path); id != "" {
		n := ex.newest[id]
		return n.Tombstone || n.Status == changelog.StatusDismissed
	}
	return false
}

// retractHint says how to retract record id, which takes a promote when
// the retraction is written on an agent branch.
const retractHint = "retract %s ('planq retract %s', then 'planq context promote --all', both in an agent's workspace or with --agent NAME) and push again"

// refuse is the refusal of the file at path, with a hint that works for
// what it is.
func (ex *excuses) refuse(path string, found secrets.Finding, data []byte) error {
	err := planqerr.New(planqerr.Refused, fmt.Sprintf("%s:%d", path, found.Line), "looks like a credential (%s); nothing was pushed", found.Rule)
	const notOne = "; if it is not, 'planq state push --allow-secret'"
	if id := ex.proposalOf(path); id != "" {
		// A proposal lives on global alone: a retraction written on an
		// agent branch would never reach it (promote carries no proposal),
		// but a dismissal is written there.
		if ex.newest[id].Status == changelog.StatusPending {
			return err.WithHint("it belongs to proposal %s: if it is one, dismiss the proposal ('planq proposals dismiss %s') and push again"+notOne, id, id)
		}
		return err.WithHint("it belongs to proposal %s, which was applied: if it is one, it is in the code repository's history as well; rotate it, then (or if it is not one) 'planq state push --allow-secret'", id)
	}
	switch path {
	case project.PlanFile:
		return err.WithHint("if it is one, replace the plan ('planq plan set PLAN') and push again" + notOne)
	case project.ChangelogFile:
		// Generated from the log entries: the line names the entry.
		if id := entryOnLine(data, found.Line); id != "" {
			return err.WithHint("the changelog is generated from the agents' log entries: if it is one, "+retractHint+notOne, "the entry", id)
		}
	}
	if r, perr := changelog.Parse(path, data); perr == nil {
		return err.WithHint("if it is one, "+retractHint+notOne, "the record", r.ID)
	}
	return err.WithHint("if it is one, remove it from %s on an agent branch and promote"+notOne, path)
}

// entryOnLine is the record ID on line n (from 1) of a generated file.
func entryOnLine(data []byte, n int) string {
	lines := strings.Split(string(data), "\n")
	if n < 1 || n > len(lines) {
		return ""
	}
	for _, word := range strings.Fields(lines[n-1]) {
		if changelog.ValidID(word) {
			return word
		}
	}
	return ""
}

// ownerID names this machine's agents on a shared remote, so two people with
// an agent called auth never collide: the user's name and a random suffix
// chosen once per state repository.
func ownerID(ctx context.Context, repo *staterepo.Repo) (string, error) {
	if id, err := repo.ConfigValue(ctx, ownerConfigKey); err != nil || id != "" {
		return id, err
	}
	var salt [3]byte
	_, _ = rand.Read(salt[:])
	user := repo.UserName()
	var b strings.Builder
	for _, r := range strings.ToLower(user) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			b.WriteRune(r)
		}
	}
	name := b.String()
	if name == "" {
		name = "user"
	}
	if len(name) > 16 {
		name = name[:16]
	}
	id := name + "-" + hex.EncodeToString(salt[:])
	return id, repo.SetConfigValue(ctx, ownerConfigKey, id)
}
