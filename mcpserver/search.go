package mcpserver

import (
	"context"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/planq-dev/planq/internal/plural"
	"github.com/planq-dev/planq/planqerr"
	"github.com/planq-dev/planq/session"
)

type searchIn struct {
	agentArg
	Query       string   `json:"query,omitempty" jsonschema:"the question, as you would ask a teammate"`
	Queries     []string `json:"queries,omitempty" jsonschema:"more phrasings, fused; add identifiers a record may hold (command, file, error)"`
	Kinds       []string `json:"kinds,omitempty"`
	Domains     []string `json:"domains,omitempty" jsonschema:"learnings of these domains"`
	Types       []string `json:"types,omitempty"`
	WrittenBy   []string `json:"written_by,omitempty" jsonschema:"agent names"`
	Since       string   `json:"since,omitempty" jsonschema:"2026-01-31, or an age: 12h, 7d, 4w"`
	Scope       string   `json:"scope,omitempty" jsonschema:"project (default); all: every project + user layer"`
	AllVersions bool     `json:"all_versions,omitempty" jsonschema:"also superseded versions"`
	Limit       int      `json:"limit,omitempty" jsonschema:"default 8, at most 50"`
	Explain     bool     `json:"explain,omitempty" jsonschema:"how each result ranked"`
}

type getIn struct {
	agentArg
	Path string `json:"path" jsonschema:"like learnings/auth/pq-3f9a1c2e4b.md"`
	From int    `json:"from,omitempty" jsonschema:"first line; default 1"`
	To   int    `json:"to,omitempty" jsonschema:"last line; default: 200 lines on"`
}

func (s *Server) registerSearch(srv *mcp.Server) {
	mcp.AddTool(srv, &mcp.Tool{Name: "planq_search", Annotations: annotate("Search the memory", reads),
		Description: "Search every agent's and the team's records. Before answering about prior work, decisions or conventions, and before a task, search: the question as query, two or three other phrasings as queries.",
		InputSchema: schemaFor[searchIn](enums{"kinds": values(session.FilterKinds()), "scope": scopes})},
		func(ctx context.Context, _ *mcp.CallToolRequest, in searchIn) (*mcp.CallToolResult, any, error) {
			return s.call(func() (string, error) { return s.search(ctx, in) })
		})
	mcp.AddTool(srv, &mcp.Tool{Name: "planq_get", Annotations: annotate("Read a record", reads),
		Description: "Read lines of one record file."},
		func(ctx context.Context, _ *mcp.CallToolRequest, in getIn) (*mcp.CallToolResult, any, error) {
			return s.call(func() (string, error) { return s.get(ctx, in) })
		})
}

func (s *Server) search(ctx context.Context, in searchIn) (string, error) {
	if in.Limit < 0 || in.Limit > session.MaxSearchLimit {
		return "", planqerr.New(planqerr.Invalid, "limit", "%d is not a number of results from 1 to %d", in.Limit, session.MaxSearchLimit).
			WithHint("pass limit 1 to %d, or leave it out for %d", session.MaxSearchLimit, session.DefaultSearchLimit)
	}
	found, err := s.svc.Search(ctx, session.SearchInput{Phrasings: append([]string{in.Query}, in.Queries...), Kinds: in.Kinds,
		Types: in.Types, Domains: in.Domains, WrittenBy: in.WrittenBy, AllVersions: in.AllVersions, Limit: in.Limit,
		Explain: in.Explain, Scope: session.Scope(in.Scope), Agent: in.Agent, Since: in.Since})
	if err != nil {
		return "", err
	}
	if found.Across != nil {
		return searchedAcross(*found.Across, in.Scope), nil
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s", plural.Of(found.Total, "record"), plural.Pick(found.Total, "matches", "match"))
	if found.Total > len(found.Hits) {
		fmt.Fprintf(&b, "; the best %d", len(found.Hits))
	}
	b.WriteString(":\n")
	for _, h := range found.Hits {
		fmt.Fprintf(&b, "\n%s\n%s\n", h.Header(), h.Snippet)
		if h.Explain != nil {
			b.WriteString(explainPlaces(*h.Explain, len(found.Phrasings) > 1))
		}
	}
	if found.Explain != nil {
		if v := found.Explain.Vector; v.Off != "" {
			fmt.Fprintf(&b, "\n(vector channel off: %s; words alone ranked)\n", v.Off)
		} else {
			fmt.Fprintf(&b, "\n(vector channel on, model %s)\n", v.Model)
		}
	}
	if w := found.VectorWarning; w != nil {
		fmt.Fprintf(&b, "\n(%v)\n", w)
	}
	b.WriteString(skipped(found.Problems))
	return b.String() + searchNext(found.Results), nil
}

// explainPlaces says how a hit came by its place: its score, and per
// ranking that held it (by phrasing, when several), its rank and score
// and what they added.
func explainPlaces(e session.HitExplain, phrasings bool) string {
	var b strings.Builder
	fmt.Fprintf(&b, "(score %.4f:", e.Score)
	for i, p := range e.Places {
		if i > 0 {
			b.WriteString(";")
		}
		if phrasings {
			fmt.Fprintf(&b, " phrasing %d", p.Phrasing)
		}
		fmt.Fprintf(&b, " %s #%d %.4f", p.Channel, p.Rank, p.Score)
		if p.RRF > 0 {
			fmt.Fprintf(&b, " +%.4f rank +%.4f standout", p.RRF, p.Standout)
		}
	}
	return b.String() + ")\n"
}

// scopes are planq_search's: a branch of this project (agent, global),
// every branch of it (project, the default), the user layer, or every
// project on this machine that did not opt out and the user layer (all).
var scopes = []any{session.ScopeAgent, session.ScopeGlobal, session.ScopeProject, session.ScopeUser, session.ScopeAll}

// searchedAcross words what a search beyond this project's branches
// found: the user layer alone (scope user), or this project, the others
// that did not opt out and the user layer (scope all); each hit labelled
// by its project.
func searchedAcross(found session.FoundAll, scope string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s", plural.Of(found.Total, "record"), plural.Pick(found.Total, "matches", "match"))
	if scope == string(session.ScopeAll) {
		b.WriteString(" across projects")
	} else {
		b.WriteString(" in the user layer")
	}
	if found.Total > len(found.Hits) {
		fmt.Fprintf(&b, "; the best %d", len(found.Hits))
	}
	b.WriteString(":\n")
	for _, h := range found.Hits {
		fmt.Fprintf(&b, "\n[%s] %s\n%s\n", h.Label(), h.Header(), h.Snippet)
		if h.Explain != nil {
			b.WriteString(explainPlaces(*h.Explain, len(found.Phrasings) > 1))
		}
	}
	for _, sk := range found.Skipped {
		fmt.Fprintf(&b, "\n(skipped project %s: %s)\n", sk.Project, sk.Problem)
	}
	b.WriteString(skipped(found.Problems))
	if len(found.Hits) > 0 && found.Hits[0].Project == found.Current {
		h := found.Hits[0]
		return b.String() + next(call("planq_get", "path", h.Path, "from", h.From, "to", h.To))
	}
	return b.String() + next(call("planq_search", "query", "<other words>", "scope", scope))
}

// searchNext are the calls that dig deeper into a search's results.
func searchNext(res session.SearchResults) string {
	if len(res.Hits) == 0 {
		return next(call("planq_search", "query", "<other words>", "queries", []string{"<an identifier the record would hold>"}), call("planq_log", "all", true))
	}
	calls := []string{call("planq_get", "path", res.Hits[0].Path, "from", res.Hits[0].From, "to", res.Hits[0].To)}
	if res.Total > len(res.Hits) {
		more := []any{"query", res.Query}
		if len(res.Phrasings) > 1 {
			more = append(more, "queries", res.Phrasings[1:])
		}
		calls = append(calls, call("planq_search", append(more, "limit", session.MaxSearchLimit)...))
	}
	return next(calls...)
}

func (s *Server) get(ctx context.Context, in getIn) (string, error) {
	got, err := s.svc.Get(ctx, session.GetInput{Ref: in.Path, From: in.From, To: in.To, Agent: in.Agent})
	if err != nil {
		return "", err
	}
	out := fmt.Sprintf("%s:%d-%d of %s\n%s", got.Path, got.From, got.To, plural.Of(got.Lines, "line"), got.Text)
	switch {
	case got.Retracted:
		out = fmt.Sprintf("(retracted by %s: search, query and context no longer show it)\n", got.SupersededBy) + out
	case got.SupersededBy != "":
		out = fmt.Sprintf("(superseded by %s: %s reads the newer version)\n", got.SupersededBy, call("planq_get", "path", got.Newer)) + out
	}
	if len(got.Stale) > 0 {
		out += "\n(may be stale: " + strings.Join(got.Stale, "; ") + ")"
	}
	if got.More() {
		return out + next(call("planq_get", "path", got.Path, "from", got.To+1)), nil
	}
	return out + next(call("planq_search", "query", "<topic>")), nil
}
