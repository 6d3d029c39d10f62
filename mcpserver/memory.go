package mcpserver

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/planq-dev/planq/agent"
	"github.com/planq-dev/planq/memtool"
)

// memoryIn is the memory-tool protocol's command, as planq memtool reads
// it from stdin, with the agent and allow_secret every write tool takes.
type memoryIn struct {
	agentArg
	writeArg
	Command    string  `json:"command"`
	Path       string  `json:"path,omitempty"`
	ViewRange  []int   `json:"view_range,omitempty"`
	FileText   *string `json:"file_text,omitempty"`
	OldStr     *string `json:"old_str,omitempty"`
	NewStr     *string `json:"new_str,omitempty"`
	InsertLine *int    `json:"insert_line,omitempty"`
	InsertText *string `json:"insert_text,omitempty"`
	OldPath    string  `json:"old_path,omitempty"`
	NewPath    string  `json:"new_path,omitempty"`
}

func (in memoryIn) command() memtool.Command {
	return memtool.Command{Command: in.Command, Path: in.Path, ViewRange: in.ViewRange, FileText: in.FileText,
		OldStr: in.OldStr, NewStr: in.NewStr, InsertLine: in.InsertLine, InsertText: in.InsertText,
		OldPath: in.OldPath, NewPath: in.NewPath}
}

// registerMemory adds planq_memory: the memory tool's commands (view,
// create, str_replace, insert, delete, rename under /memories) on the
// agent's memories/ folder, answered with the protocol's texts, as
// 'planq memtool' answers them. A refusal is a tool error whose text is
// the protocol's answer; nothing is added to either (no "Next:"), since
// models were trained on the texts as they are.
func (s *Server) registerMemory(srv *mcp.Server) {
	mcp.AddTool(srv, &mcp.Tool{Name: "planq_memory", Annotations: annotate("Memory tool (/memories)", overwrites),
		Description: "The memory tool's commands on your /memories folder, kept in git (a commit per change).",
		InputSchema: schemaFor[memoryIn](enums{"command": {"view", "create", "str_replace", "insert", "delete", "rename"}})},
		func(ctx context.Context, _ *mcp.CallToolRequest, in memoryIn) (*mcp.CallToolResult, any, error) {
			return s.withAgent(in.Agent, func(a *agent.Agent) (string, error) {
				f, err := memtool.ForAgent(a, in.options())
				if err != nil {
					return "", err
				}
				res, err := memtool.Apply(ctx, f, in.command())
				return res.Text, err
			})
		})
}
