package mcpserver

import (
	"context"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/planqerr"
	"github.com/planq-dev/planq/prime"
	"github.com/planq-dev/planq/readmodel"
)

type queryIn struct {
	agentArg
	Domains         []string `json:"domains,omitempty" jsonschema:"the domains whose learnings you want"`
	All             bool     `json:"all,omitempty" jsonschema:"every domain's learnings"`
	Types           []string `json:"types,omitempty" jsonschema:"only learnings of these types"`
	Classifications []string `json:"classifications,omitempty" jsonschema:"only learnings of these classifications"`
	Since           string   `json:"since,omitempty" jsonschema:"only learnings since a date (2026-01-31) or an age (12h, 7d, 4w)"`
	AllVersions     bool     `json:"all_versions,omitempty" jsonschema:"also versions a later one superseded"`
}

func (s *Server) registerQuery(srv *mcp.Server, readOnly *mcp.ToolAnnotations) {
	mcp.AddTool(srv, &mcp.Tool{Name: "planq_query", Annotations: readOnly,
		Description: "The team's learnings of one or more domains (or all), ranked as the session context ranks them: read a domain's expertise before you work in it.",
		InputSchema: schemaFor[queryIn](enums{"types": values(changelog.KindLearning.Spec().Types), "classifications": values(changelog.Classifications)})},
		func(ctx context.Context, _ *mcp.CallToolRequest, in queryIn) (*mcp.CallToolResult, any, error) {
			return s.readAgent(in.Agent, func(readmodel.Ref) (string, error) { return s.query(ctx, in) })
		})
}

func (s *Server) query(ctx context.Context, in queryIn) (string, error) {
	if err := checkDomains(in.Domains); err != nil {
		return "", err
	}
	since, err := readmodel.ParseSince(in.Since, time.Now())
	if err != nil {
		return "", err
	}
	f := readmodel.LearningFilter{Domains: in.Domains, Since: since, AllVersions: in.AllVersions}
	for _, t := range in.Types {
		f.Types = append(f.Types, changelog.Type(t))
	}
	for _, c := range in.Classifications {
		f.Classifications = append(f.Classifications, changelog.Classification(c))
	}
	recs, domains, problems, err := s.store.Records.Learnings(f)
	if err != nil {
		return "", err
	}
	if len(in.Domains) == 0 && !in.All {
		return "", planqerr.New(planqerr.Invalid, "query", "names no domain").
			WithHint("pass domains (there are: %s), or all: true", strings.Join(domains, ", "))
	}
	out, err := prime.Expertise(s.store.Project.Config.Project, recs, "markdown", readmodel.CheckAnchors(ctx, s.store.Project.Root, recs))
	if err != nil {
		return "", err
	}
	out += skipped(problems)
	if len(recs) == 0 {
		return out + next(call("planq_query", "all", true), call("planq_search", "query", "<topic>")), nil
	}
	return out + next(call("planq_get", "path", recs[0].Path), call("planq_search", "query", "<topic>", "domains", []string{recs[0].Domain})), nil
}
