package mcpserver

import (
	"context"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/planq-dev/planq/knowledge"
)

type kbCurateIn struct{}

type kbWriteIn struct {
	Slug    string `json:"slug"`
	Article string `json:"article" jsonschema:"the file"`
	Force   bool   `json:"force,omitempty" jsonschema:"over a deletion or a person's text"`
}

// registerKB adds planq_kb_curate and planq_kb_write: the knowledge base's
// work packet and the curating agent's answer, as 'planq kb curate' and
// 'planq kb write' give and take them.
func (s *Server) registerKB(srv *mcp.Server) {
	mcp.AddTool(srv, &mcp.Tool{Name: "planq_kb_curate", Annotations: annotate("Knowledge base packet", reads),
		Description: "Knowledge base work: candidate articles, their records, the rules."},
		func(ctx context.Context, _ *mcp.CallToolRequest, _ kbCurateIn) (*mcp.CallToolResult, any, error) {
			return s.call(func() (string, error) {
				p, err := knowledge.Curate(ctx, s.store, knowledge.CurateOptions{Options: s.kbOptions(), Limit: kbPacketSize})
				if err != nil {
					return "", err
				}
				return p.Markdown(), nil
			})
		})
	mcp.AddTool(srv, &mcp.Tool{Name: "planq_kb_write", Annotations: annotate("Write a knowledge article", overwrites),
		Description: "Answer planq_kb_curate: one article, checked and committed."},
		func(ctx context.Context, _ *mcp.CallToolRequest, in kbWriteIn) (*mcp.CallToolResult, any, error) {
			return s.call(func() (string, error) {
				res, err := knowledge.Write(ctx, s.store, []byte(in.Article),
					knowledge.WriteOptions{Options: s.kbOptions(), Slug: in.Slug, Name: "article", Force: in.Force})
				if err != nil {
					return "", err
				}
				if res.Action == "unchanged" {
					return fmt.Sprintf("%s is as it was: nothing committed", res.Path) + next(call("planq_kb_curate")), nil
				}
				text := fmt.Sprintf("%s %s on global (curated_by %s, commit %s)", res.Action, res.Path, res.CuratedBy, res.Commit[:min(12, len(res.Commit))])
				if res.Moved != "" {
					text += "; moved from " + res.Moved
				}
				return text + next(call("planq_kb_curate")), nil
			})
		})
}

// kbPacketSize is how many candidates one planq_kb_curate packet holds,
// as 'planq kb curate' does by default.
const kbPacketSize = 10

func (s *Server) kbOptions() knowledge.Options {
	return knowledge.Options{Topics: s.store.Project.Config.Knowledge.Topics}
}
