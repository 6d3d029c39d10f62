package mcpserver

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/planq-dev/planq/session"
)

type retractIn struct {
	agentArg
	writeArg
	scopeArg
	ID     string `json:"id" jsonschema:"the record's ID"`
	Reason string `json:"reason,omitempty" jsonschema:"why it is wrong"`
}

// registerRetract adds planq_retract: an agent that finds a learning or
// decision wrong takes it back, as 'planq retract' does.
func (s *Server) registerRetract(srv *mcp.Server) {
	mcp.AddTool(srv, &mcp.Tool{Name: "planq_retract", Annotations: annotate("Retract a record", addsOnce),
		Description: "Retract a wrong record so no session sees it again. To correct it: planq_edit.",
		InputSchema: schemaFor[retractIn](enums{"scope": writeScopes})},
		func(ctx context.Context, _ *mcp.CallToolRequest, in retractIn) (*mcp.CallToolResult, any, error) {
			return s.call(func() (string, error) {
				return written(s.svc.Retract(ctx, session.RetractInput{Author: author(in.agentArg, in.writeArg),
					Scope: session.Scope(in.Scope), ID: in.ID, Reason: in.Reason}))
			})
		})
}
