// Command planq-server is planq with its long-running front ends linked
// in: the MCP server ('planq mcp serve', 'planq mcp tools') and the review
// page ('planq ui'). planq hands those commands to it, so that what agents
// and hooks start thousands of times a day does not initialise their
// libraries; any other command runs as in planq.
package main

import (
	"os"

	"github.com/planq-dev/planq/cli"
	"github.com/planq-dev/planq/mcpserver"
	"github.com/planq-dev/planq/review"
)

func main() {
	os.Exit(cli.MainServing(cli.Servers{MCP: mcpserver.Serve, MCPTools: mcpserver.ToolsJSON, Review: review.Run}))
}
