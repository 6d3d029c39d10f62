package prime

import (
	"fmt"
	"github.com/planq-dev/planq/internal/plural"
	"slices"
	"strings"
	"text/template"

	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/readmodel"
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

// Options choose the document and its rendering.
type Options struct {
	// Role is RoleAgent (the default) or RoleLead.
	Role string
	// Source is how the session started; empty means SourceStartup.
	Source string
	// Format is one of Formats; empty means markdown.
	Format string
	// Budget caps the rendered size in characters; 0 means DefaultBudget.
	Budget int
	// Template, when set, replaces the layout (the project's PRIME.md, see
	// ParseTemplate); Format is then not used.
	Template *template.Template
}

// Recovering reports whether the session resumes (after a compaction or a
// pause): the document is then short, and what other agents did is left out.
func (o Options) Recovering() bool {
	return o.Source == SourceCompact || o.Source == SourceResume
}

// Lead reports whether the document is a lead's.
func (o Options) Lead() bool { return o.Role == RoleLead }

// Item is one piece of the document.
type Item struct {
	Section  string `json:"section"`
	Text     string `json:"text"`
	Priority int    `json:"priority"` // lower is more important
	Dropped  bool   `json:"dropped,omitempty"`
	// Record is the ID of the record the item shows, if it shows one: a
	// record the session is given counts as used (its shelf life).
	Record string `json:"-"`
	// Article is the path of the article whose text the item shows, if it
	// shows one: left out, it is named with its planq get.
	Article string `json:"article,omitempty"`
	// Layer is LayerUser for an item of the user layer, "" for the project's.
	Layer string `json:"layer,omitempty"`
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

// Document is what prime produces: its items, each marked included or
// dropped, and their rendering.
type Document struct {
	Project string `json:"project"`
	Agent   string `json:"agent"`
	// For is whom the document is for, as its heading names them: "agent
	// auth", or for global's, the person ("Ada Lovelace (lead)", "lead").
	For    string `json:"for"`
	Role   string `json:"role"`
	Source string `json:"source"`
	Items  []Item `json:"items"`
	// Omitted counts learnings never made into items: far more than any
	// budget holds.
	Omitted int `json:"omitted,omitempty"`
	// OmittedArticles counts the articles the knowledge base's index was
	// never to list (see MaxIndex).
	OmittedArticles int `json:"omitted_articles,omitempty"`
	// Text is the rendering, within the budget.
	Text string `json:"-"`
	// fullSize is the length of the rendering with nothing dropped, set when
	// the budget did not hold it: the budget that shows everything.
	fullSize int
	// Problems are malformed records left out.
	Problems []string `json:"problems,omitempty"`
	// global says the document is global's (Input.Global): a person's.
	global bool
	// userMore counts the user layer's preferences never made into items.
	userMore int
}

// Section names, in the order they are rendered.
var sectionOrder = []string{
	"No agent", "Recovery", "Handoff", "Focus", "Plan", "Branch", sectionKnowledge, sectionPreferences, sectionArticles, "Relevant to your task", sectionMemories, sectionUserPreferences, sectionUser, "Awaiting promotion", "Disputed", "Proposals to review", "Stale", "Domains",
	"Learnings", "Decisions", "Your recent work", "Other agents", "Agents", "Recording",
}

// maxRecovering is how many of the team's learnings a resuming session is
// given: it had the rest before.
const maxRecovering = 10

// Build makes the document of in, fits it to the budget (the least
// important items dropped first) and renders it in the format. It reads
// nothing: in holds all it shows. When the rendering fails, the document
// comes back with the error, for its problems.
func Build(in *Input, opts Options) (*Document, error) {
	if opts.Role == "" {
		opts.Role = RoleAgent
	}
	if opts.Source == "" {
		opts.Source = SourceStartup
	}
	s := in.Summary
	doc := &Document{Project: s.Project, Agent: s.Agent, For: "agent " + s.Agent, Role: opts.Role, Source: opts.Source, Problems: s.Problems}
	if in.Global {
		doc.global, doc.For = true, "lead"
		if in.Person != "" {
			doc.For = in.Person + " (lead)"
		}
	}
	b := &builder{doc: doc, in: in}
	b.openingItems(opts)
	knowledgeItems(doc, in.Knowledge)
	memoryItems(doc, in.Memories)
	b.relevantItems()
	learnings := teamLearnings(s, opts)
	if opts.Lead() {
		leadItems(in, b.by, b.add)
		b.staleItems(Cited(in, opts))
	}
	doc.Omitted = s.TeamTotal - len(learnings)
	for _, r := range learnings {
		b.addRecord(r.ID, "Learnings", readmodel.Priority(r), "%s", indexLine(r, withMark(in.Stale.Mark(r.ID))))
	}
	for _, r := range s.Learnings {
		b.addRecord(r.ID, "Learnings", readmodel.Priority(r), "%s", indexLine(r, " (yours, not promoted yet)"+withMark(in.Stale.Mark(r.ID))))
	}
	if !opts.Recovering() {
		b.workItems()
	}
	userItems(doc, in.User)
	b.add("Recording", 1, "%s", recordingGuide)
	var err error
	doc.Text, err = fit(doc, opts)
	return doc, err
}

// builder adds the items of a document of in.
type builder struct {
	doc *Document
	in  *Input
}

func (b *builder) add(section string, priority int, format string, args ...any) {
	b.doc.Items = append(b.doc.Items, Item{Section: section, Priority: priority, Text: fmt.Sprintf(format, args...)})
}

// addRecord adds the item of record id.
func (b *builder) addRecord(id, section string, priority int, format string, args ...any) {
	b.add(section, priority, format, args...)
	b.doc.Items[len(b.doc.Items)-1].Record = id
}

// by names who wrote as agent. Global is a branch, not someone: what it
// wrote, the lead wrote.
func (b *builder) by(agent string) string {
	switch {
	case agent == "" || agent != b.in.GlobalWriter:
		return agent
	case b.in.Person != "":
		return b.in.Person
	}
	return "the lead"
}

// openingItems are what the session starts from: that no agent is
// mounted, that it resumes, its handoff, focus, plan and branch.
func (b *builder) openingItems(opts Options) {
	in, s := b.in, b.in.Summary
	if in.Global && opts.Role == RoleAgent {
		b.add("No agent", 0, "No agent is mounted in this checkout, so this is the team's memory (global), read only. To record your own work, create an agent: eval \"$(planq create NAME)\" makes a workspace of its own, planq create NAME --here mounts it in this checkout.")
	}
	if opts.Recovering() {
		b.add("Recovery", 0, "This session resumes after a %s. Before going on, record what you learned before it that is not recorded yet: planq learn \"...\" --type ... --domain ..., planq decide \"...\" --because \"...\", planq log add \"...\".", map[bool]string{true: "compaction", false: "pause"}[opts.Source == SourceCompact])
	}
	if h := s.Handoff; h != nil {
		b.add("Handoff", 0, "From %s (%s): %s\nAcknowledge it once you have picked it up: planq handoff ack %s", b.by(h.Agent), h.ID, strings.TrimSpace(h.Body), h.ID)
	}
	if s.Focus != "" {
		b.add("Focus", 1, "%s", s.Focus)
	}
	if in.Plan != "" {
		b.add("Plan", 1, "%s", strings.TrimSpace(in.Plan))
	}
	if c := s.BranchContext; c != nil {
		b.add("Branch", 2, "%s (%s): %s", c.Branch, c.Status, strings.TrimSpace(c.Body))
	} else if s.Code.Branch != "" {
		b.add("Branch", 6, "%s (no context recorded yet: planq branch append \"...\")", s.Code.Branch)
	}
}

// relevantItems are the records relevant to the agent's task.
func (b *builder) relevantItems() {
	for _, h := range b.in.Relevant {
		title := h.Title
		if r := h.Record(); r != nil && r.Title() == title {
			title = teaching(r)
		}
		b.addRecord(h.ID, "Relevant to your task", 1, "%s (%s by %s, %s): planq get %s:%d-%d%s", readmodel.Shorten(title, 160), h.Kind, b.by(h.Agent),
			h.Time.UTC().Format("2006-01-02"), h.Path, h.From, h.To, withMark(b.in.Stale.Mark(h.ID)))
	}
}

// staleItems are the records shown whose code moved on, for the lead to
// check.
func (b *builder) staleItems(cited []*changelog.Record) {
	for _, r := range cited {
		if mark := b.in.Stale.Mark(r.ID); mark != "" {
			b.add("Stale", 3, "%s %s: check it against the code, then planq revalidate %s (or planq edit, planq retract)", indexLine(r, ""), mark, r.ID)
		}
	}
}

// workItems are the decisions, the agent's recent work and the other
// agents', which a resuming session had before.
func (b *builder) workItems() {
	s := b.in.Summary
	for i, r := range s.TeamDecisions {
		b.add("Decisions", 5+i/5, "%s", indexLine(r, ""))
	}
	for i, r := range s.Decisions {
		b.add("Decisions", 6+i/5, "%s", indexLine(r, ""))
	}
	for i, r := range s.RecentLog {
		b.add("Your recent work", 6+i/3, "%s %s", r.Timestamp.Format(readmodel.TimeLayout), readmodel.Line(r))
	}
	otherAgents(b.in.Activity, s.Agent, b.by, b.add)
}

// teamLearnings are the team's learnings the document lists: s.Team, ranked
// already, fewer when the session resumes.
func teamLearnings(s *Summary, opts Options) []*changelog.Record {
	if opts.Recovering() {
		return s.Team[:min(len(s.Team), maxRecovering)]
	}
	return s.Team
}

// Cited lists the records the document of in would show, before any is
// dropped: the team's learnings, the agent's own, and the relevant ones. The
// session checks whether the code they cite moved on (Input.Stale), in one
// git call for all.
func Cited(in *Input, opts Options) []*changelog.Record {
	shown := slices.Concat(teamLearnings(in.Summary, opts), in.Summary.Learnings)
	for _, h := range in.Relevant {
		if r := h.Record(); r != nil {
			shown = append(shown, r)
		}
	}
	return shown
}

// indexLine is a record as the rest of the document lists it: what it
// teaches in its one-line form (teachingLine), a note, and where it is, for
// planq get to read it whole.
func indexLine(r *changelog.Record, note string) string {
	return teachingLine(r) + note + " — " + r.Path
}

// leadItems: what awaits promotion per agent, what global has disputed, each
// agent's activity, the domains that need attention and the proposals
// waiting for a person.
func leadItems(in *Input, by func(string) string, add func(string, int, string, ...any)) {
	for _, w := range in.Awaiting {
		add("Awaiting promotion", 1, "%s: %d new (%s); review with planq context promote --agent %s --dry-run", w.Agent, len(w.Titles),
			strings.Join(w.Titles[:min(3, len(w.Titles))], "; "), w.Agent)
	}
	for _, r := range in.Summary.Disputed {
		add("Disputed", 1, "%s %s", r.ID, teachingLine(r))
	}
	for _, act := range in.Activity {
		add("Agents", 3, "%s: %s, last %s: %s", by(act.Agent), plural.Of(act.Entries, "entry"), act.LastEntry.Format(readmodel.TimeLayout), act.Title)
	}
	for _, d := range in.Domains {
		var why []string
		if d.Governance != readmodel.GovernanceOK {
			why = append(why, fmt.Sprintf("%s: %s", plural.Of(d.Current, "current learning"), d.Governance))
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
	for _, p := range in.Proposals {
		add("Proposals to review", 2, "%s (%s, %s to %s, by %s): %s — planq proposals show %s", p.ID, p.State, plural.Of(p.Additions, "addition"),
			strings.Join(p.Paths, ", "), by(p.Agent), readmodel.Shorten(strings.SplitN(p.Summary, "\n", 2)[0], 100), p.ID)
	}
}

// withMark is a record's staleness mark as a note after its line.
func withMark(mark string) string {
	if mark == "" {
		return ""
	}
	return " " + mark
}

// otherAgents says what the other agents did lately: each one's latest entry.
func otherAgents(activity []readmodel.Activity, self string, by func(string) string, add func(string, int, string, ...any)) {
	n := 0
	for _, act := range activity {
		if act.Agent == self {
			continue
		}
		add("Other agents", 7+n/3, "%s, %s: %s", by(act.Agent), act.LastEntry.Format(readmodel.TimeLayout), act.Title)
		n++
	}
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
