package mcpserver

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

type curateIn struct{ agentArg }

// registerCurate adds planq_curate: the curating agent's work packet, as
// 'planq curate' prints it.
func (s *Server) registerCurate(srv *mcp.Server, readOnly *mcp.ToolAnnotations) {
	mcp.AddTool(srv, &mcp.Tool{Name: "planq_curate", Annotations: readOnly,
		Description: "When asked to curate: all raw notes, the instruction files, the rules, how to answer."},
		func(ctx context.Context, _ *mcp.CallToolRequest, in curateIn) (*mcp.CallToolResult, any, error) {
			return s.call(func() (string, error) {
				p, err := s.svc.Curate(ctx, in.Agent)
				return p.Markdown(), err
			})
		})
}
