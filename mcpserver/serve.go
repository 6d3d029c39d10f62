package mcpserver

import (
	"context"
	"encoding/json"
	"fmt"
	"io"

	"github.com/planq-dev/planq/planqerr"
)

// Serve runs the MCP server of the project at dir on in and out (the
// process's stdin and stdout) until the client goes away; memoryTool also
// offers planq_memory. Outside a planq project it serves all the same,
// after warning so: an agent whose server died at start has no way to
// learn why, while a tool result tells it (and its user) what to do.
func Serve(ctx context.Context, dir, version string, memoryTool bool, in io.Reader, out io.Writer, warn func(msg string)) error {
	srv, err := New(ctx, dir, version)
	if planqerr.Is(err, planqerr.NotInitialized) {
		warn("not a planq project; every tool will say so")
		srv = Unavailable(planqerr.New(planqerr.NotInitialized, dir, "is not a planq project, so planq has no memory to serve here").
			WithHint("run 'planq init' in the code repository, or start the server with --project DIR ('planq setup' writes it for Claude, Cursor and Copilot)"), version)
		err = nil
	}
	if err != nil {
		return err
	}
	if memoryTool {
		srv.OfferMemoryTool()
	}
	defer func() { _ = srv.Close() }() // the record cache is only a shortcut
	return srv.Run(ctx, in, out)
}

// ToolsJSON is Tools as JSON: what 'planq mcp tools --json' prints.
func ToolsJSON(ctx context.Context, version string, memoryTool bool) ([]byte, error) {
	tools, err := Tools(ctx, version, memoryTool)
	if err != nil {
		return nil, err
	}
	out, err := json.Marshal(tools)
	if err != nil {
		return nil, fmt.Errorf("failed to encode the tools: %w", err)
	}
	return out, nil
}
