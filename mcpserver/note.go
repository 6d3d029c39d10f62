package mcpserver

import (
	"context"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/session"
)

type noteIn struct {
	agentArg
	writeArg
	Text string `json:"text" jsonschema:"one observation"`
	Type string `json:"type,omitempty" jsonschema:"operational: how work is done (default); codebase: about the code"`
}

// registerNote adds planq_note: a raw note in one step, stamped with the
// client the agent connected as.
func (s *Server) registerNote(srv *mcp.Server) {
	mcp.AddTool(srv, &mcp.Tool{Name: "planq_note", Annotations: annotate("Note for the instruction files", adds),
		Description: "Note what belongs in the instruction files (a command that works, a trap), reading nothing first.",
		InputSchema: schemaFor[noteIn](enums{"type": values(changelog.KindNote.Spec().Types)})},
		func(ctx context.Context, req *mcp.CallToolRequest, in noteIn) (*mcp.CallToolResult, any, error) {
			return s.call(func() (string, error) {
				noted, err := s.svc.Note(ctx, session.NoteInput{Author: author(in.agentArg, in.writeArg), Text: in.Text,
					Type: changelog.Type(in.Type), AgentKind: clientKind(req)})
				if err != nil {
					return "", err
				}
				out, err := written(noted.Written[len(noted.Written)-1], nil)
				// The note landed; a line of the inbox that could not stays there, named.
				for _, k := range noted.Kept {
					out += fmt.Sprintf("\nwarning: %v\nhint: %s", k, k.Hint)
				}
				return out, err
			})
		})
}

// clientKind is the name the MCP client gave when it connected: the
// coding agent a note comes from ("" when none: the service guesses from
// the environment).
func clientKind(req *mcp.CallToolRequest) string {
	if req == nil || req.Session == nil {
		return ""
	}
	if p := req.Session.InitializeParams(); p != nil && p.ClientInfo != nil {
		return p.ClientInfo.Name
	}
	return ""
}
