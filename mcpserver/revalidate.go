package mcpserver

import "github.com/modelcontextprotocol/go-sdk/mcp"

// registerRevalidate adds planq_revalidate (placeholder until it is built).
func (s *Server) registerRevalidate(*mcp.Server) {}
