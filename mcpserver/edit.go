package mcpserver

import (
	"context"
	"errors"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/planq-dev/planq/agent"
	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/lifecycle"
	"github.com/planq-dev/planq/planqerr"
)

type editIn struct {
	agentArg
	writeArg
	ID             string   `json:"id" jsonschema:"its current version's ID"`
	Text           *string  `json:"text,omitempty" jsonschema:"new text; first line is the title"`
	Type           *string  `json:"type,omitempty"`
	Domain         *string  `json:"domain,omitempty"`
	Classification *string  `json:"classification,omitempty"`
	Resolution     *string  `json:"resolution,omitempty"`
	Subject        *string  `json:"subject,omitempty" jsonschema:"short key of what it is about"`
	Tags           []string `json:"tags,omitempty"`
	Decision       *string  `json:"decision,omitempty" jsonschema:"the choice made"`
	Because        *string  `json:"because,omitempty" jsonschema:"the rationale"`
	Over           []string `json:"over,omitempty" jsonschema:"alternatives rejected"`
}

// registerEdit adds planq_edit: the CLI's 'planq edit' with fields, for an
// agent that finds a learning or decision it was given partly wrong.
func (s *Server) registerEdit(srv *mcp.Server) {
	mcp.AddTool(srv, &mcp.Tool{Name: "planq_edit", Annotations: annotate("Correct a learning or decision", addsOnce),
		Description: "Correct a learning or decision: a new version supersedes it, with the fields you pass (a list replaces the old).",
		InputSchema: schemaFor[editIn](enums{"type": values(changelog.KindLearning.Spec().Types), "classification": values(changelog.Classifications)})},
		func(ctx context.Context, _ *mcp.CallToolRequest, in editIn) (*mcp.CallToolResult, any, error) {
			return s.withAgent(in.Agent, func(a *agent.Agent) (string, error) {
				old, err := lifecycle.Target(a, in.ID)
				if err != nil {
					return "", err
				}
				next := lifecycle.NextVersion(old)
				for _, f := range []struct {
					to   *string
					from *string
				}{{&next.Body, in.Text}, {&next.Domain, in.Domain}, {&next.Resolution, in.Resolution},
					{&next.Subject, in.Subject}, {&next.Decision, in.Decision}, {&next.Rationale, in.Because}} {
					if f.from != nil {
						*f.to = *f.from
					}
				}
				if in.Type != nil {
					next.Type = changelog.Type(*in.Type)
				}
				if in.Classification != nil {
					next.Classification = changelog.Classification(*in.Classification)
				}
				if in.Tags != nil {
					next.Tags = in.Tags
				}
				if in.Over != nil {
					next.Alternatives = in.Over
				}
				w, err := lifecycle.Edit(ctx, a, old, next, in.options())
				if errors.Is(err, lifecycle.ErrUnchanged) {
					return "", planqerr.New(planqerr.Invalid, in.ID, "the edit changes nothing: nothing was written")
				}
				return written(w, err)
			})
		})
}
