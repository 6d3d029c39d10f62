package mcpserver

import (
	"context"
	"errors"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/planqerr"
	"github.com/planq-dev/planq/session"
)

type editIn struct {
	agentArg
	writeArg
	scopeArg
	ID             string   `json:"id" jsonschema:"current version's ID"`
	Text           *string  `json:"text,omitempty" jsonschema:"new text"`
	Type           *string  `json:"type,omitempty"`
	Domain         *string  `json:"domain,omitempty"`
	Classification *string  `json:"classification,omitempty"`
	Resolution     *string  `json:"resolution,omitempty"`
	Subject        *string  `json:"subject,omitempty" jsonschema:"short key of its topic"`
	Tags           []string `json:"tags,omitempty"`
	Decision       *string  `json:"decision,omitempty" jsonschema:"the choice made"`
	Because        *string  `json:"because,omitempty" jsonschema:"the rationale"`
	Over           []string `json:"over,omitempty" jsonschema:"alternatives rejected"`
}

// registerEdit adds planq_edit: the CLI's 'planq edit' with fields, for an
// agent that finds a learning or decision it was given partly wrong.
func (s *Server) registerEdit(srv *mcp.Server) {
	mcp.AddTool(srv, &mcp.Tool{Name: "planq_edit", Annotations: annotate("Correct a learning or decision", addsOnce),
		Description: "Correct a learning or decision: a new version with the fields you pass (lists replace).",
		InputSchema: schemaFor[editIn](enums{"type": values(changelog.KindLearning.Spec().Types), "classification": values(changelog.Classifications), "scope": writeScopes})},
		func(ctx context.Context, _ *mcp.CallToolRequest, in editIn) (*mcp.CallToolResult, any, error) {
			return s.call(func() (string, error) {
				w, err := s.svc.Edit(ctx, session.EditInput{Author: author(in.agentArg, in.writeArg), Scope: session.Scope(in.Scope), ID: in.ID,
					Text: in.Text, Type: in.Type, Domain: in.Domain, Classification: in.Classification, Resolution: in.Resolution,
					Subject: in.Subject, Decision: in.Decision, Rationale: in.Because, Tags: in.Tags, Alternatives: in.Over})
				if errors.Is(err, session.ErrUnchanged) {
					return "", planqerr.New(planqerr.Invalid, in.ID, "the edit changes nothing: nothing was written")
				}
				return written(w, err)
			})
		})
}
