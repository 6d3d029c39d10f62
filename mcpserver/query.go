package mcpserver

import (
	"context"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/planqerr"
	"github.com/planq-dev/planq/session"
)

type queryIn struct {
	agentArg
	Domains         []string `json:"domains,omitempty"`
	All             bool     `json:"all,omitempty" jsonschema:"every domain"`
	Types           []string `json:"types,omitempty"`
	Classifications []string `json:"classifications,omitempty"`
	Since           string   `json:"since,omitempty" jsonschema:"2026-01-31, or an age: 12h, 7d, 4w"`
	AllVersions     bool     `json:"all_versions,omitempty" jsonschema:"also superseded versions"`
}

func (s *Server) registerQuery(srv *mcp.Server) {
	mcp.AddTool(srv, &mcp.Tool{Name: "planq_query", Annotations: annotate("Learnings by domain", reads),
		Description: "The team's learnings of some domains (or all), ranked: read a domain's before working in it.",
		InputSchema: schemaFor[queryIn](enums{"types": values(changelog.KindLearning.Spec().Types), "classifications": values(changelog.Classifications)})},
		func(ctx context.Context, _ *mcp.CallToolRequest, in queryIn) (*mcp.CallToolResult, any, error) {
			return s.call(func() (string, error) { return s.query(ctx, in) })
		})
}

func (s *Server) query(ctx context.Context, in queryIn) (string, error) {
	q := session.QueryInput{Domains: in.Domains, AllVersions: in.AllVersions, All: in.All, Since: in.Since, Agent: in.Agent}
	for _, t := range in.Types {
		q.Types = append(q.Types, changelog.Type(t))
	}
	for _, c := range in.Classifications {
		q.Classifications = append(q.Classifications, changelog.Classification(c))
	}
	ex, err := s.svc.Query(ctx, q)
	if err != nil {
		return "", err
	}
	if ex.Unnamed {
		return "", planqerr.New(planqerr.Invalid, "query", "names no domain").
			WithHint("pass domains (there are: %s), or all: true", strings.Join(ex.Domains, ", "))
	}
	out := ex.Text + skipped(ex.Problems)
	if len(ex.Learnings) == 0 {
		return out + next(call("planq_query", "all", true), call("planq_search", "query", "<topic>")), nil
	}
	return out + next(call("planq_get", "path", ex.Learnings[0].Path), call("planq_search", "query", "<topic>", "domains", []string{ex.Learnings[0].Domain})), nil
}
