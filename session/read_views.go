package session

import (
	"context"
	"time"

	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/internal/embed"
	"github.com/planq-dev/planq/internal/knowledge"
	"github.com/planq-dev/planq/prime"
	"github.com/planq-dev/planq/project"
	"github.com/planq-dev/planq/readmodel"
)

// The views of the memory, as the front ends present them.
type (
	// AgentStatus is one agent as planq list shows it.
	AgentStatus = readmodel.AgentStatus
	// LogView is a changelog, newest entry first.
	LogView = readmodel.LogView
	// Version is one version of a record and what became of it.
	Version = readmodel.Version
	// KBOverview counts the knowledge base's articles.
	KBOverview = knowledge.Overview
	// ContextSummary is what an agent needs to pick up its work.
	ContextSummary = prime.Summary
)

// AgentBroken is the status of an agent whose branch's tip cannot be read.
const AgentBroken = readmodel.StatusBroken

// Size governance of a domain, and the weeks its trend covers.
const (
	DomainTarget        = readmodel.DomainTarget
	DomainWarning       = readmodel.DomainWarning
	DomainLimit         = readmodel.DomainLimit
	GovernanceSplit     = readmodel.GovernanceSplit
	GovernanceHardLimit = readmodel.GovernanceHardLimit
	TrendWeeks          = readmodel.TrendWeeks
)

// ShelfLife is how long a learning of each classification stays fresh
// where the project says nothing else.
var ShelfLife = readmodel.ShelfLife

// Agents lists the project's agents, sorted by name, and the record files
// that did not read.
func (s *Project) Agents(ctx context.Context) ([]AgentStatus, []string, error) {
	h, err := s.handle(ctx)
	if err != nil {
		return nil, nil, err
	}
	return h.Records.Agents()
}

// LogQuery selects changelog entries: an agent's (the one named, else the
// one mounted), or every agent's.
type LogQuery struct {
	Agent string
	All   bool
	// Since keeps the entries written since a date or an age.
	Since string
	// Limit keeps the newest Limit entries; 0 keeps all.
	Limit int
}

// Log is the changelog the query selects, newest first.
func (s *Project) Log(ctx context.Context, in LogQuery) (*LogView, error) {
	since, err := readmodel.ParseSince(in.Since, time.Now())
	if err != nil {
		return nil, err
	}
	h, err := s.handle(ctx)
	if err != nil {
		return nil, err
	}
	name := in.Agent
	if !in.All {
		a, err := h.Resolve(in.Agent)
		if err != nil {
			return nil, err
		}
		name = a.Name
	}
	return h.Records.Log(readmodel.LogOptions{Agent: name, All: in.All, Since: since, Limit: in.Limit})
}

// ShowInput asks for a record and, with History, every version before it.
type ShowInput struct {
	ID      string
	History bool
	// AsOf, when set, shows the record as the memory held it then.
	AsOf string
	// Files reads each version's file too (ShownVersion.File).
	Files bool
}

// ShownVersion is a version as show presents it: with the notes of the
// code files it cites that moved on since, and its file as it is.
type ShownVersion struct {
	Version
	Stale []string `json:"stale,omitempty"`
	File  []byte   `json:"-"`
}

// Show reads record in.ID's current version (and with History the older
// ones, newest first), each checked against its own anchors. AsOf is the
// moment read, when the input named one, even when the read then failed.
func (s *Project) Show(ctx context.Context, in ShowInput) ([]ShownVersion, AsOf, error) {
	var at AsOf
	h, err := s.handle(ctx)
	if err != nil {
		return nil, at, err
	}
	if in.AsOf != "" {
		if at, err = h.Records.PinAsOf(ctx, in.AsOf); err != nil {
			return nil, at, err
		}
	}
	versions, err := h.Records.History(in.ID, in.History)
	if err != nil {
		return nil, at, err
	}
	recs := make([]*changelog.Record, len(versions))
	for i, v := range versions {
		recs[i] = v.Record
	}
	stale := readmodel.CheckAnchors(ctx, h.Project.Root, recs)
	out := make([]ShownVersion, len(versions))
	for i, v := range versions {
		out[i] = ShownVersion{Version: v, Stale: stale.Notes[v.Record.ID]}
		if in.Files {
			if out[i].File, _, err = h.Records.ReadFile(v.Record.Path); err != nil {
				return nil, at, err
			}
		}
	}
	return out, at, nil
}

// StatusReport is each domain's learnings, the record files that did not
// read, and, when asked, the knowledge base's counts and the search model.
type StatusReport struct {
	Domains  []DomainStatus
	Problems []string
	// Knowledge counts global's articles; SearchModel says which model
	// search embeds by, from the settings alone (no model is read).
	Knowledge   KBOverview
	SearchModel string
}

// Status describes every domain's learnings on global and every agent
// branch, with the project's shelf lives and its anchors checked against
// the code checkout; with overview, the knowledge base and the search
// model too.
func (s *Project) Status(ctx context.Context, overview bool) (StatusReport, error) {
	var st StatusReport
	h, err := s.handle(ctx)
	if err != nil {
		return st, err
	}
	p := h.Project
	if st.Domains, st.Problems, err = h.Records.Status(ctx, time.Now(), readmodel.ShelfLivesOf(p.Config.ShelfLife), p.Root); err != nil || !overview {
		return st, err
	}
	articles, _, err := h.Records.Articles()
	if err != nil {
		return st, err
	}
	st.Knowledge, _ = knowledge.Survey(articles)
	st.SearchModel = searchModel(p)
	return st, nil
}

// searchModel says which model search embeds by, from the settings alone.
func searchModel(p *project.Project) string {
	c, err := embed.Choose(readmodel.EmbedSettings(p))
	switch {
	case err != nil:
		return "none usable, search goes by words alone (" + err.Error() + ")"
	case c.Kind == embed.KindNone:
		return "none (search: model: none), search goes by words alone"
	case c.Kind == embed.KindDefault && !embed.HasDefault():
		return "default, but this planq carries none: search goes by words alone"
	case c.Kind == embed.KindDefault:
		return "default (built into planq)"
	case c.Kind == embed.KindEndpoint:
		return "endpoint " + c.Name
	}
	return c.Kind + " " + c.Name + " (" + c.Dir + ")"
}

// ContextInput asks for the summary an agent needs to pick up its work.
type ContextInput struct {
	// Agent is the agent named, else the one mounted.
	Agent string
	// OrGlobal reads the team's summary where no agent is named or
	// mounted (the MCP tools' reads); without it, that is an error.
	OrGlobal bool
	// AsOf, when set, reads the memory as it was then.
	AsOf string
}

// Context is the summary of the agent (or the team): its focus, scratch,
// code branch and that branch's context, and its view of the records.
// AsOf is the moment read, when the input named one.
func (s *Project) Context(ctx context.Context, in ContextInput) (*ContextSummary, AsOf, error) {
	var at AsOf
	h, err := s.handle(ctx)
	if err != nil {
		return nil, at, err
	}
	var r readmodel.Ref
	if in.OrGlobal {
		r, err = h.Reader(in.Agent)
	} else {
		r, err = h.Resolve(in.Agent)
	}
	if err != nil {
		return nil, at, err
	}
	if in.AsOf != "" {
		if at, err = h.Records.PinAsOf(ctx, in.AsOf); err != nil {
			return nil, at, err
		}
	}
	sum, err := summary(h, r, 0)
	return sum, at, err
}

// FocusInput sets what an agent works on (planq context set).
type FocusInput struct {
	Author
	Focus string
}

// SetFocus writes the agent's current focus, one commit.
func (s *Project) SetFocus(ctx context.Context, in FocusInput) (Written, error) {
	a, err := s.agent(ctx, in.Agent)
	if err != nil {
		return Written{}, err
	}
	return a.SetFocus(ctx, in.Focus, in.options())
}
