package prime

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/planq-dev/planq/agent"
	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/curation"
	"github.com/planq-dev/planq/project"
	"github.com/planq-dev/planq/readmodel"
	"github.com/planq-dev/planq/team"
)

// DefaultBudget fits under every agent's cap on injected context, with room
// for the agent's own framing (Claude Code keeps 10,000 characters).
const DefaultBudget = 9000

// Roles.
const (
	RoleAgent = "agent"
	RoleLead  = "lead"
)

// Session sources, as the agents report them.
const (
	SourceStartup = "startup"
	SourceResume  = "resume"
	SourceCompact = "compact"
	SourceClear   = "clear"
)

// Sources lists the session sources.
var Sources = []string{SourceStartup, SourceResume, SourceCompact, SourceClear}

// Options choose the document.
type Options struct {
	Role   string
	Source string
	// Budget caps the rendered size in characters; 0 means DefaultBudget.
	Budget int
	Format string
}

// Item is one piece of the document.
type Item struct {
	Section  string `json:"section"`
	Text     string `json:"text"`
	Priority int    `json:"priority"` // lower is more important
	Dropped  bool   `json:"dropped,omitempty"`
	// Record is the ID of the record the item shows, if it shows one: a
	// record the session is given counts as used (its shelf life).
	Record string `json:"-"`
}

// Shown lists the records the document gives the session: the items that
// show one and were not dropped.
func (d *Document) Shown() []string {
	var ids []string
	for _, it := range d.Items {
		if it.Record != "" && !it.Dropped {
			ids = append(ids, it.Record)
		}
	}
	return ids
}

// Document is what prime produces, before rendering.
type Document struct {
	Project string `json:"project"`
	Agent   string `json:"agent"`
	Role    string `json:"role"`
	Source  string `json:"source"`
	Items   []Item `json:"items"`
	// Omitted counts learnings never made into items: far more than any
	// budget holds.
	Omitted int `json:"omitted,omitempty"`
	// fullSize is the length of the rendering with nothing dropped, set when
	// the budget did not hold it: the budget that shows everything.
	fullSize int
	// Problems are malformed records left out.
	Problems []string `json:"problems,omitempty"`
}

// Section names, in the order they are rendered.
var sectionOrder = []string{
	"No agent", "Recovery", "Handoff", "Focus", "Plan", "Branch", "Relevant to your task", "Awaiting promotion", "Disputed", "Proposals to review", "Stale", "Domains",
	"Learnings", "Decisions", "Your recent work", "Other agents", "Agents", "Recording",
}

// Build assembles the document for a, an agent or global, read from store.
func Build(ctx context.Context, store *agent.Store, a readmodel.Ref, opts Options) (*Document, error) {
	if opts.Role == "" {
		opts.Role = RoleAgent
	}
	if opts.Source == "" {
		opts.Source = SourceStartup
	}
	doc := &Document{Project: store.Project.Config.Project, Agent: a.Name, Role: opts.Role, Source: opts.Source}
	s, err := buildSummary(store.Handle, a, readmodel.MaxTeamLearnings)
	if err != nil {
		return nil, err
	}
	doc.Problems = s.Problems
	recovering := opts.Source == SourceCompact || opts.Source == SourceResume
	add := func(section string, priority int, format string, args ...any) {
		doc.Items = append(doc.Items, Item{Section: section, Priority: priority, Text: fmt.Sprintf(format, args...)})
	}
	if a.Branch == project.GlobalBranch && opts.Role == RoleAgent {
		add("No agent", 0, "No agent is mounted in this checkout, so this is the team's memory (global), read only. To record your own work, create an agent: eval \"$(planq create NAME)\" makes a workspace of its own, planq create NAME --here mounts it in this checkout.")
	}
	if recovering {
		add("Recovery", 0, "This session resumes after a %s. Before going on, record what you learned before it that is not recorded yet: planq learn \"...\" --type ... --domain ..., planq decide \"...\" --because \"...\", planq log add \"...\".", map[bool]string{true: "compaction", false: "pause"}[opts.Source == SourceCompact])
	}
	if h := s.Handoff; h != nil {
		add("Handoff", 0, "From %s (%s): %s\nAcknowledge it once you have picked it up: planq handoff ack %s", h.Agent, h.ID, strings.TrimSpace(h.Body), h.ID)
	}
	if s.Focus != "" {
		add("Focus", 1, "%s", s.Focus)
	}
	if plan, err := store.Records.Plan(); err != nil {
		return nil, err
	} else if plan != "" {
		add("Plan", 1, "%s", strings.TrimSpace(plan))
	}
	if c := s.BranchContext; c != nil {
		add("Branch", 2, "%s (%s): %s", c.Branch, c.Status, strings.TrimSpace(c.Body))
	} else if s.Code.Branch != "" {
		add("Branch", 6, "%s (no context recorded yet: planq branch append \"...\")", s.Code.Branch)
	}
	hits, err := relevant(store, s)
	if err != nil {
		return nil, err
	}
	learnings := s.Team // ranked already
	limit := len(learnings)
	if recovering {
		limit = min(limit, 10)
	}
	learnings = learnings[:limit]
	// Whether the code the shown records cite moved on: one git call for all.
	shown := slices.Concat(learnings, s.Learnings)
	for _, h := range hits {
		if r := h.Record(); r != nil {
			shown = append(shown, r)
		}
	}
	stale := readmodel.CheckAnchors(ctx, codeDir(store.Handle, a), shown)
	for _, h := range hits {
		add("Relevant to your task", 1, "%s (%s by %s, %s): planq get %s:%d-%d%s", readmodel.Shorten(h.Title, 160), h.Kind, h.Agent,
			h.Time.UTC().Format("2006-01-02"), h.Path, h.From, h.To, withMark(stale.Mark(h.ID)))
		doc.Items[len(doc.Items)-1].Record = h.ID
	}
	// Each agent's latest entry: read once, for the lead's table and for
	// what other agents did.
	var activity []readmodel.Activity
	switch {
	case opts.Role == RoleLead:
		view, err := store.Records.Log(readmodel.LogOptions{All: true, Limit: 1}) // its table of agents, not the entries
		if err != nil {
			return nil, err
		}
		activity = view.Agents
	case !recovering:
		// What other agents did lately needs each one's latest entry only.
		var err error
		if activity, err = store.Records.Latest(); err != nil {
			return nil, err
		}
	}
	if opts.Role == RoleLead {
		if err := leadItems(ctx, store, s.Disputed, activity, add); err != nil {
			return nil, err
		}
	}
	if opts.Role == RoleLead {
		if err := domainItems(ctx, store, add); err != nil {
			return nil, err
		}
		if err := proposalItems(ctx, store, codeDir(store.Handle, a), add); err != nil {
			return nil, err
		}
		for _, r := range shown {
			if mark := stale.Mark(r.ID); mark != "" {
				add("Stale", 3, "%s %s: check it against the code, then planq revalidate %s (or planq edit, planq retract)", indexLine(r, ""), mark, r.ID)
			}
		}
	}
	doc.Omitted = s.TeamTotal - limit
	for _, r := range learnings {
		add("Learnings", readmodel.Priority(r), "%s", indexLine(r, withMark(stale.Mark(r.ID))))
		doc.Items[len(doc.Items)-1].Record = r.ID
	}
	for _, r := range s.Learnings {
		add("Learnings", readmodel.Priority(r), "%s", indexLine(r, " (yours, not promoted yet)"+withMark(stale.Mark(r.ID))))
		doc.Items[len(doc.Items)-1].Record = r.ID
	}
	if !recovering {
		for i, r := range s.TeamDecisions {
			add("Decisions", 5+i/5, "%s", indexLine(r, ""))
		}
		for i, r := range s.Decisions {
			add("Decisions", 6+i/5, "%s", indexLine(r, ""))
		}
		for i, r := range s.RecentLog {
			add("Your recent work", 6+i/3, "%s %s", r.Timestamp.Format(readmodel.TimeLayout), readmodel.Line(r))
		}
		otherAgents(activity, a.Name, add)
	}
	add("Recording", 1, "%s", recordingGuide)
	return doc, nil
}

// indexLine is a record as the rest of the document lists it: its one-line
// form, a note, and where it is, for planq get to read it whole.
func indexLine(r *changelog.Record, note string) string {
	return readmodel.Line(r) + note + " — " + r.Path
}

// domainItems: for a lead, one line per domain that needs attention: too
// large, past its shelf life, or disputed (see planq status).
func domainItems(ctx context.Context, store *agent.Store, add func(string, int, string, ...any)) error {
	domains, _, err := store.Records.Status(ctx, time.Now(), readmodel.ShelfLivesOf(store.Project.Config.ShelfLife), "")
	if err != nil {
		return err
	}
	for _, d := range domains {
		var why []string
		if d.Governance != readmodel.GovernanceOK {
			why = append(why, fmt.Sprintf("%d current learnings: %s", d.Current, d.Governance))
		}
		if d.PastShelfLife > 0 {
			why = append(why, fmt.Sprintf("%d past their shelf life (planq prune)", d.PastShelfLife))
		}
		if d.Disputed > 0 {
			why = append(why, fmt.Sprintf("%d disputed", d.Disputed))
		}
		if len(why) == 0 {
			continue
		}
		if d.Flattening {
			why = append(why, "insight rate flattening")
		}
		add("Domains", 3, "%s: %s (planq status)", d.Domain, strings.Join(why, ", "))
	}
	return nil
}

// proposalItems: for a lead, each curation proposal waiting for a person.
func proposalItems(ctx context.Context, store *agent.Store, codeRoot string, add func(string, int, string, ...any)) error {
	views, err := curation.List(ctx, store.Handle, codeRoot)
	if err != nil {
		return err
	}
	for _, v := range views {
		if v.State != curation.StatePending && v.State != curation.StateStale {
			continue
		}
		add("Proposals to review", 2, "%s (%s, %d additions to %s, by %s): %s — planq proposals show %s", v.ID, v.State, v.Additions,
			strings.Join(v.Paths(), ", "), v.Agent, readmodel.Shorten(strings.SplitN(v.Summary, "\n", 2)[0], 100), v.ID)
	}
	return nil
}

// withMark is a record's staleness mark as a note after its line.
func withMark(mark string) string {
	if mark == "" {
		return ""
	}
	return " " + mark
}

// codeDir is the code checkout whose files the agent's records cite: its
// workspace, or (global, read from a lead's checkout) the project's.
func codeDir(h *readmodel.Handle, a readmodel.Ref) string {
	if a.Workspace != "" {
		return a.Workspace
	}
	return h.Project.Root
}

// maxRelevant is how many records the task's search shows.
const maxRelevant = 5

// relevant searches for the agent's task (its focus, its branch's context
// and the handoff it picks up) as planq search would: the best records.
func relevant(store *agent.Store, s *Summary) ([]readmodel.Hit, error) {
	task := []string{s.Focus}
	if c := s.BranchContext; c != nil {
		task = append(task, c.Body)
	}
	if h := s.Handoff; h != nil {
		task = append(task, h.Body)
	}
	return store.Records.Relevant(task, maxRelevant)
}

// otherAgents says what the other agents did lately: each one's latest entry.
func otherAgents(activity []readmodel.Activity, self string, add func(string, int, string, ...any)) {
	n := 0
	for _, act := range activity {
		if act.Agent == self {
			continue
		}
		add("Other agents", 7+n/3, "%s, %s: %s", act.Agent, act.LastEntry.Format(readmodel.TimeLayout), act.Title)
		n++
	}
}

// leadItems: what awaits promotion per agent, and what global has disputed.
func leadItems(ctx context.Context, store *agent.Store, disputed []*changelog.Record, activity []readmodel.Activity, add func(string, int, string, ...any)) error {
	awaiting, err := team.AwaitingPromotion(ctx, store)
	if err != nil {
		return err
	}
	for _, w := range awaiting {
		titles := make([]string, 0, 3)
		for _, c := range w.Candidates[:min(3, len(w.Candidates))] {
			titles = append(titles, c.Title)
		}
		add("Awaiting promotion", 1, "%s: %d new (%s); review with planq context promote --agent %s --dry-run", w.Agent, len(w.Candidates), strings.Join(titles, "; "), w.Agent)
	}
	for _, r := range disputed {
		add("Disputed", 1, "%s %s", r.ID, readmodel.Line(r))
	}
	for _, act := range activity {
		add("Agents", 3, "%s: %d entries, last %s: %s", act.Agent, act.Entries, act.LastEntry.Format(readmodel.TimeLayout), act.Title)
	}
	return nil
}

// recordingGuide tells an agent how to write back, with what is and is not
// a learning. The types come from the kind table; a learning of type
// decision is left out: decisions have a command of their own.
var recordingGuide = `Record as you work; each command commits at once:
- planq log add "what you did" --type ` + changelog.Join(changelog.KindLog.Spec().Types, "|") + `
- planq learn "insight" --type ` + changelog.Join(slices.DeleteFunc(slices.Clone(changelog.KindLearning.Spec().Types), func(t changelog.Type) bool { return t == changelog.TypeDecision }), "|") + ` --domain NAME (failures need --resolution)
- planq decide "choice" --over alt1,alt2 --because "why"
- planq handoff "what the next session should pick up"
A learning is what the next session must know, e.g. "always run 'just check' before committing: the pre-commit hook rejects unformatted SQL". "Added function X" is not a learning: it is a log entry.`
