// Command planq-server is planq with its long-running front ends and its
// network linked in: the MCP server ('planq mcp serve', 'planq mcp
// tools'), the review page ('planq ui'), the HTTP client that fetches
// models ('planq model fetch') and posts to an embeddings endpoint
// ('planq-server post', planq's way to one), and the JSON editor of an
// agent's settings ('planq setup', 'planq mcp install'). planq hands those
// commands to it, so that what agents and hooks start thousands of times a
// day does not initialise their libraries; any other command runs as in
// planq.
package main

import (
	"os"

	"github.com/planq-dev/planq/cli"
	"github.com/planq-dev/planq/hooks"
	"github.com/planq-dev/planq/internal/embed"
	"github.com/planq-dev/planq/internal/jsonedit"
	"github.com/planq-dev/planq/internal/netpost"
	"github.com/planq-dev/planq/mcpserver"
	"github.com/planq-dev/planq/review"
)

func main() {
	embed.Network = embed.Net{Post: netpost.Post, Get: netpost.Get}
	hooks.JSON = jsonedit.Editor{}
	os.Exit(cli.MainServing(cli.Servers{MCP: mcpserver.Serve, MCPTools: mcpserver.ToolsJSON, Review: review.Run}))
}
