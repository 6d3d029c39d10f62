package mcpserver

import (
	"context"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/planq-dev/planq/session"
)

type proposeIn struct {
	agentArg
	ProposedFiles    map[string]string `json:"proposed_files" jsonschema:"each file's path: its whole new content"`
	DiffSummary      string            `json:"diff_summary" jsonschema:"what it adds, briefly"`
	EntriesUsed      []string          `json:"entries_used" jsonschema:"note IDs the additions use"`
	EntriesDiscarded map[string]string `json:"entries_discarded,omitempty" jsonschema:"note IDs left out: why"`
}

// registerPropose adds planq_propose: the curating agent's answer to
// planq_curate, checked and kept on global as 'planq propose' does.
func (s *Server) registerPropose(srv *mcp.Server) {
	mcp.AddTool(srv, &mcp.Tool{Name: "planq_propose", Annotations: annotate("Propose instruction file additions", addsOnce),
		Description: "Answer planq_curate: the instruction files as they should read (additions only), a summary, the notes used and discarded."},
		func(ctx context.Context, _ *mcp.CallToolRequest, in proposeIn) (*mcp.CallToolResult, any, error) {
			// The proposal is kept on global: a lead without an agent may send it.
			return s.call(func() (string, error) {
				res, err := s.svc.Propose(ctx, session.ProposeInput{Agent: in.Agent, Proposal: session.Proposal{ProposedFiles: in.ProposedFiles,
					DiffSummary: in.DiffSummary, EntriesUsed: in.EntriesUsed, EntriesDiscarded: in.EntriesDiscarded}})
				if err != nil {
					return "", err
				}
				// A file named through a symbolic link went to its target, or was left out.
				return fmt.Sprintf("kept proposal %s for review (planq proposals show %s, or planq ui)", res.View.ID, res.View.ID) +
					strings.Join(append([]string{""}, res.Settled...), "\n"), nil
			})
		})
}
