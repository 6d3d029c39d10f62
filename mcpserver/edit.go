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
	ID             string   `json:"id" jsonschema:"the learning or decision to correct (its current version)"`
	Text           *string  `json:"text,omitempty" jsonschema:"the new text (first line is the title)"`
	Type           *string  `json:"type,omitempty" jsonschema:"a learning's new type"`
	Domain         *string  `json:"domain,omitempty" jsonschema:"a learning's new domain"`
	Classification *string  `json:"classification,omitempty" jsonschema:"a learning's new classification"`
	Resolution     *string  `json:"resolution,omitempty" jsonschema:"a failure's new resolution"`
	Subject        *string  `json:"subject,omitempty" jsonschema:"the new subject key"`
	Tags           []string `json:"tags,omitempty" jsonschema:"the new tags, replacing the old"`
	Decision       *string  `json:"decision,omitempty" jsonschema:"a decision's new choice"`
	Because        *string  `json:"because,omitempty" jsonschema:"a decision's new rationale"`
	Over           []string `json:"over,omitempty" jsonschema:"a decision's new alternatives, replacing the old"`
}

// registerEdit adds planq_edit: the CLI's 'planq edit' with fields, for an
// agent that finds a learning or decision it was given partly wrong.
func (s *Server) registerEdit(srv *mcp.Server) {
	mcp.AddTool(srv, &mcp.Tool{Name: "planq_edit",
		Description: "Correct a learning or decision: writes a new version that supersedes it, changing only the fields you pass.",
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
