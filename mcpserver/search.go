package mcpserver

import (
	"context"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/planq-dev/planq/agent"
	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/readmodel"
)

type searchIn struct {
	agentArg
	Query string `json:"query" jsonschema:"words to look for in every agent's and the team's records"`
	Kind  string `json:"kind,omitempty" jsonschema:"only records of this kind"`
	Limit int    `json:"limit,omitempty" jsonschema:"at most this many results (default 8, at most 50)"`
}

type getIn struct {
	agentArg
	Path string `json:"path" jsonschema:"a record's path as planq_search or planq_log gave it, like learnings/auth/pq-3f9a1c2e4b.md"`
	From int    `json:"from,omitempty" jsonschema:"first line (default 1)"`
	To   int    `json:"to,omitempty" jsonschema:"last line (default: 200 lines on)"`
}

func (s *Server) registerSearch(srv *mcp.Server, readOnly *mcp.ToolAnnotations) {
	mcp.AddTool(srv, &mcp.Tool{Name: "planq_search", Annotations: readOnly,
		Description: "Search every agent's and the team's records (learnings, decisions, log, handoffs). Before answering about prior work, decisions or conventions, search. Results are snippets with file path and line range.",
		InputSchema: schemaFor[searchIn](enums{"kind": values(changelog.Kinds)})},
		func(_ context.Context, _ *mcp.CallToolRequest, in searchIn) (*mcp.CallToolResult, any, error) {
			return s.readAgent(in.Agent, func(*agent.Agent) (string, error) { return s.search(in) })
		})
	mcp.AddTool(srv, &mcp.Tool{Name: "planq_get", Annotations: readOnly,
		Description: "Read lines of one record file from the state repository."},
		func(_ context.Context, _ *mcp.CallToolRequest, in getIn) (*mcp.CallToolResult, any, error) {
			return s.readAgent(in.Agent, func(a *agent.Agent) (string, error) { return s.get(a, in) })
		})
}

func (s *Server) search(in searchIn) (string, error) {
	res, err := s.store.Records.Search(readmodel.Query{Text: in.Query, Kind: changelog.Kind(in.Kind), Limit: in.Limit})
	if err != nil {
		return "", err
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%d records match %q", res.Total, in.Query)
	if res.Total > len(res.Hits) {
		fmt.Fprintf(&b, "; the best %d", len(res.Hits))
	}
	b.WriteString(":\n")
	for _, h := range res.Hits {
		fmt.Fprintf(&b, "\n%s:%d-%d (%s by %s, %s)\n%s\n", h.Path, h.From, h.To, h.Kind, h.Agent, h.Time.Format("2006-01-02"), h.Snippet)
	}
	b.WriteString(skipped(res.Problems))
	if len(res.Hits) == 0 {
		return b.String() + next(call("planq_search", "query", "<other words>"), call("planq_log", "all", true)), nil
	}
	return b.String() + next(call("planq_get", "path", res.Hits[0].Path), call("planq_search", "query", in.Query, "limit", readmodel.MaxSearchLimit)), nil
}

func (s *Server) get(a *agent.Agent, in getIn) (string, error) {
	ex, err := s.store.Records.Get(in.Path, in.From, in.To, a.Branch)
	if err != nil {
		return "", err
	}
	out := fmt.Sprintf("%s:%d-%d of %d lines\n%s", ex.Path, ex.From, ex.To, ex.Lines, ex.Text)
	if ex.More() {
		return out + next(call("planq_get", "path", ex.Path, "from", ex.To+1)), nil
	}
	return out + next(call("planq_search", "query", "<topic>")), nil
}
