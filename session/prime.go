package session

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"text/template"
	"time"

	"github.com/planq-dev/planq/branchctx"
	"github.com/planq-dev/planq/curation"
	"github.com/planq-dev/planq/internal/knowledge"
	"github.com/planq-dev/planq/internal/untrusted"
	"github.com/planq-dev/planq/prime"
	"github.com/planq-dev/planq/project"
	"github.com/planq-dev/planq/readmodel"
	"github.com/planq-dev/planq/team"
)

// PrimeOptions choose the prime document.
type PrimeOptions struct {
	// Agent names the agent; empty means the one mounted in the project's
	// workspace (a lead without one reads global).
	Agent  string
	Role   string
	Source string
	Format string
	// Budget caps the rendered size in characters; 0 means prime.DefaultBudget.
	Budget int
	// Preview builds the document without counting what it shows as used
	// (prime --dry-run).
	Preview bool
	// AsOf, when set, builds it from the memory as it was then (a date or a
	// commit; see readmodel.Reader.PinAsOf); nothing is counted as used.
	AsOf string
	// Warn, when set, hears why the records relevant to the task were
	// found by their words only (the embedding model failed), and why the
	// user layer was left out (it could not be read).
	Warn func(error)
}

// The prime document's words, as the front ends take them.
const (
	RoleAgent     = prime.RoleAgent
	RoleLead      = prime.RoleLead
	SourceStartup = prime.SourceStartup
	// DefaultBudget is the document's size when no budget is given.
	DefaultBudget = prime.DefaultBudget
)

// PrimeSources are the ways a session starts.
var PrimeSources = prime.Sources

// Prime builds what an agent is told at session start and fits it to the
// budget. It returns the rendered text and the document, each item marked
// included or dropped.
func (s *Project) Prime(ctx context.Context, opts PrimeOptions) (string, *prime.Document, error) {
	h, err := s.handle(ctx)
	if err != nil {
		return "", nil, err
	}
	p := h.Project
	if opts.AsOf != "" {
		if _, err := h.Records.PinAsOf(ctx, opts.AsOf); err != nil {
			return "", nil, err
		}
		opts.Preview = true
	}
	// Where no agent is mounted (a lead's main checkout, say), the session
	// still gets the team's memory, read only.
	a, err := h.Reader(opts.Agent)
	if err != nil {
		return "", nil, err
	}
	popts := prime.Options{Role: opts.Role, Source: opts.Source, Format: opts.Format, Budget: opts.Budget}
	in, err := gatherPrime(ctx, h, a, popts)
	if err != nil {
		return "", nil, err
	}
	// The user layer as it is now: a document of the memory as it was
	// then (AsOf) is the project's alone.
	if opts.AsOf == "" {
		if err := gatherUserLayer(ctx, p, a, in); err != nil && opts.Warn != nil {
			opts.Warn(userLayerProblem(err))
		}
	}
	if w := h.Records.VectorWarning(); w != nil && opts.Warn != nil {
		opts.Warn(w)
	}
	if popts.Template, err = loadTemplate(p.Root); err != nil {
		return "", nil, err
	}
	doc, err := prime.Build(in, popts)
	if err == nil && !opts.Preview && !a.Global() {
		_ = h.NoteUses(a, doc.Shown()) // uses only keep records fresh: never fail a session start for one
	}
	return doc.Text, doc, err
}

// gatherPrime reads everything the prime document of a (an agent, or
// global) shows, and only that: what other agents did is not read for a
// resuming session, what a lead is shown only for a lead.
func gatherPrime(ctx context.Context, store *readmodel.Handle, a readmodel.Ref, opts prime.Options) (*prime.Input, error) {
	s, err := summary(store, a, readmodel.MaxTeamLearnings)
	if err != nil {
		return nil, err
	}
	in := &prime.Input{Summary: s, Global: a.Global(), GlobalWriter: project.GlobalBranch}
	if a.Global() || opts.Lead() {
		// Global's document, and what global wrote, are the person's at
		// this checkout: named by git's user.name ("lead" when git has none).
		if in.Person, err = store.Git().ConfigValue(ctx, "user.name"); err != nil {
			in.Person = ""
		}
	}
	if in.Plan, err = store.Records.Plan(); err != nil {
		return nil, err
	}
	task := primeTask(s)
	if in.Relevant, err = store.Records.RelevantContext(ctx, task, prime.MaxRelevant); err != nil {
		return nil, err
	}
	if err := gatherKnowledge(ctx, store, task, in); err != nil {
		return nil, err
	}
	if !a.Global() {
		// The index of the agent's memory files, from the read model.
		if in.Memories, err = store.Records.Memories(a.Branch); err != nil {
			return nil, err
		}
	}
	// Whether the code the shown records cite moved on: one git call for all.
	codeDir := a.Workspace
	if codeDir == "" {
		codeDir = store.Project.Root // global, read from a lead's checkout
	}
	in.Stale = readmodel.CheckAnchors(ctx, codeDir, prime.Cited(in, opts))
	switch {
	case opts.Lead():
		err = gatherLead(ctx, store, codeDir, in)
	case !opts.Recovering():
		// What other agents did lately needs each one's latest entry only.
		in.Activity, err = store.Records.Latest()
	}
	if err != nil {
		return nil, err
	}
	return in, nil
}

// primeTask is the agent's task, searched as planq search would: its
// focus, its branch's context and the handoff it picks up.
func primeTask(s *prime.Summary) []string {
	task := []string{s.Focus}
	if c := s.BranchContext; c != nil {
		task = append(task, c.Body)
	}
	if h := s.Handoff; h != nil {
		task = append(task, h.Body)
	}
	return task
}

// gatherLead reads what only a lead's document shows: the table of
// agents, what awaits promotion, the domains and undecided proposals.
func gatherLead(ctx context.Context, store *readmodel.Handle, codeDir string, in *prime.Input) error {
	view, err := store.Records.Log(readmodel.LogOptions{All: true, Limit: 1}) // its table of agents, not the entries
	if err != nil {
		return err
	}
	in.Activity = view.Agents
	awaiting, err := team.AwaitingPromotion(ctx, store)
	if err != nil {
		return err
	}
	for _, w := range awaiting {
		titles := make([]string, len(w.Candidates))
		for i, c := range w.Candidates {
			titles[i] = c.Title
		}
		in.Awaiting = append(in.Awaiting, prime.Awaiting{Agent: w.Agent, Titles: titles})
	}
	if in.Domains, _, err = store.Records.Status(ctx, time.Now(), readmodel.ShelfLivesOf(store.Project.Config.ShelfLife), ""); err != nil {
		return err
	}
	proposals, err := curation.List(ctx, store, codeDir)
	if err != nil {
		return err
	}
	for _, v := range proposals {
		if v.Undecided() {
			in.Proposals = append(in.Proposals, prime.Proposal{ID: v.ID, State: v.State, Agent: v.Agent, Summary: v.Summary, Additions: v.Additions, Paths: v.Paths()})
		}
	}
	return nil
}

// gatherKnowledge reads global's knowledge base for in: its articles, from
// the read model's index of them (no git on a warm start), and the best of
// them for the task, ranked by search as the task's records are.
func gatherKnowledge(ctx context.Context, store *readmodel.Handle, task []string, in *prime.Input) error {
	articles, problems, err := store.Records.Articles()
	if err != nil {
		return err
	}
	in.Summary.Problems = append(in.Summary.Problems, problems...)
	if len(articles) == 0 {
		return nil
	}
	topics := store.Project.Config.Knowledge.Topics
	if len(topics) == 0 {
		topics = knowledge.DefaultTopics
	}
	in.Knowledge = prime.Knowledge{Topics: topics, Articles: articles}
	in.Knowledge.Relevant, err = store.Records.ArticlesForTask(ctx, task, in.Relevant, prime.MaxArticleHits)
	return err
}

// summary is what a (an agent, or global) needs to pick up its work
// (planq context show, planq_context), read through store: its focus,
// scratch, code branch and that branch's context, and its view of the
// records, with the first team learnings of global, ranked, in Team.
func summary(store *readmodel.Handle, a readmodel.Ref, team int) (*prime.Summary, error) {
	s := &prime.Summary{Project: store.Project.Config.Project, Agent: a.Name, Branch: a.Branch, AgentDir: a.Dir}
	var err error
	if s.Focus, err = store.Focus(a); err != nil {
		return nil, err
	}
	if s.Scratch, err = store.Scratch(a); err != nil {
		return nil, err
	}
	var problems []string
	if a.Workspace != "" {
		if s.Code, err = branchctx.Current(a.Workspace); err != nil {
			return nil, err
		}
		if s.Code.Branch != "" {
			if s.BranchContext, _, err = store.BranchContext(a, s.Code.Branch); err != nil {
				problems = append(problems, err.Error())
			}
		}
	}
	v, err := store.Records.Agent(a.Name, a.Branch, team)
	if err != nil {
		return nil, err
	}
	s.AgentView = *v
	s.Problems = append(problems, v.Problems...)
	return s, nil
}

// maxTemplate bounds PRIME.md: a template for a document of 10,000
// characters has no use for more.
const maxTemplate = 256 << 10

// loadTemplate reads the project's PRIME.md, if it has one.
func loadTemplate(root string) (*template.Template, error) {
	// A person wrote it: a FIFO there must not stall every session start.
	data, err := untrusted.ReadFile(root, filepath.Join(root, prime.TemplatePath), maxTemplate)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("failed to read %s: %w", prime.TemplatePath, err)
	}
	return prime.ParseTemplate(string(data))
}
