package mcpserver

import (
	"context"
	"strings"

	"github.com/charmbracelet/log"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/planq-dev/planq/agent"
	"github.com/planq-dev/planq/memtool"
	"github.com/planq-dev/planq/planqerr"
	"github.com/planq-dev/planq/project"
	"github.com/planq-dev/planq/userlayer"
)

// memoryIn is the memory-tool protocol's command, as planq memtool reads
// it from stdin, with the agent and allow_secret every write tool takes.
type memoryIn struct {
	agentArg
	writeArg
	// Scope is whose memories/: the agent's (the default) or the user
	// layer's, what a person keeps across projects.
	Scope string `json:"scope,omitempty"`
	memoryCommand
}

// memoryCommand is the protocol's command, embedded in memoryIn under a
// name of its own: embedded as memtool.Command, its field Command would
// stand beside a field of the same name one level up.
type memoryCommand = memtool.Command

func (in memoryIn) command() memtool.Command { return in.memoryCommand }

// registerMemory adds planq_memory: the memory tool's commands (view,
// create, str_replace, insert, delete, rename under /memories) on the
// agent's memories/ folder, answered with the protocol's texts, as
// 'planq memtool' answers them. A refusal is a tool error whose text is
// the protocol's answer; nothing is added to either (no "Next:"), since
// models were trained on the texts as they are.
func (s *Server) registerMemory(srv *mcp.Server) {
	mcp.AddTool(srv, &mcp.Tool{Name: "planq_memory", Annotations: annotate("Memory tool (/memories)", overwrites),
		Description: "The memory tool's commands on your /memories folder, kept in git (a commit per change).",
		InputSchema: schemaFor[memoryIn](enums{"command": {"view", "create", "str_replace", "insert", "delete", "rename"}, "scope": values(memoryScopes)})},
		func(ctx context.Context, _ *mcp.CallToolRequest, in memoryIn) (*mcp.CallToolResult, any, error) {
			switch in.Scope {
			case "", "agent":
			case "user":
				return s.userMemory(ctx, in)
			default:
				return nil, nil, toolError(planqerr.New(planqerr.Invalid, "scope", "%q is not one of %s", in.Scope, strings.Join(memoryScopes, ", ")))
			}
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

// memoryScopes are whose memories/ planq_memory applies a command to.
var memoryScopes = []string{"agent", "user"}

// userMemory carries out in's command on the user layer's memories/ (made
// on first use, which the server's log says), as planq memtool --scope
// user does. It needs no project: the user layer is the person's.
func (s *Server) userMemory(ctx context.Context, in memoryIn) (*mcp.CallToolResult, any, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	text, err := func() (string, error) {
		if in.Agent != "" {
			return "", planqerr.New(planqerr.Invalid, "agent", "names an agent; the user layer has none").
				WithHint("leave agent out with scope user")
		}
		home, err := project.Home()
		if err != nil {
			return "", err
		}
		l, err := userlayer.Open(ctx, home)
		if err != nil {
			return "", err
		}
		defer func() { _ = l.Close() }()
		if l.Created {
			log.Info("planq: made the user layer: what you keep across projects", "path", l.Project.StateRepo())
		}
		f, done, err := memtool.ForUserLayer(l.Store)
		if err != nil {
			return "", err
		}
		defer done()
		res, err := memtool.Apply(ctx, f, in.command())
		return res.Text, err
	}()
	if err != nil {
		return nil, nil, toolError(err)
	}
	return textResult(text), nil, nil
}
