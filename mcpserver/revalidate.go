package mcpserver

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/planq-dev/planq/session"
)

type revalidateIn struct {
	agentArg
	writeArg
	scopeArg
	ID string `json:"id" jsonschema:"the learning's ID"`
}

// registerRevalidate adds planq_revalidate: an agent shown a learning
// marked "may be stale" checks it against the code and, if it holds,
// re-anchors it, as 'planq revalidate' does.
func (s *Server) registerRevalidate(srv *mcp.Server) {
	mcp.AddTool(srv, &mcp.Tool{Name: "planq_revalidate", Annotations: annotate("Revalidate a stale learning", addsOnce),
		Description: "Re-anchor a learning marked \"may be stale\" you found still true. If wrong: planq_edit or planq_retract.",
		InputSchema: schemaFor[revalidateIn](enums{"scope": writeScopes})},
		func(ctx context.Context, _ *mcp.CallToolRequest, in revalidateIn) (*mcp.CallToolResult, any, error) {
			return s.call(func() (string, error) {
				return written(s.svc.Revalidate(ctx, session.RevalidateInput{Author: author(in.agentArg, in.writeArg),
					Scope: session.Scope(in.Scope), ID: in.ID}))
			})
		})
}
