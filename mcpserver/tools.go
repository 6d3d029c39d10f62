package mcpserver

import (
	"context"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/planq-dev/planq/agent"
	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/planqerr"
	"github.com/planq-dev/planq/readmodel"
	"github.com/planq-dev/planq/session"
)

// Inputs. Descriptions go to the agent; keep them short: all tool
// descriptions together stay well under 2,500 tokens.

type agentArg struct {
	Agent string `json:"agent,omitempty" jsonschema:"agent name; default: the agent mounted in the project"`
}

// writeArg is what every tool that writes takes beside the agent.
type writeArg struct {
	AllowSecret bool `json:"allow_secret,omitempty" jsonschema:"store it though it looks like a credential; only when it is none"`
}

func (w writeArg) options() agent.WriteOptions { return agent.WriteOptions{AllowSecret: w.AllowSecret} }

type contextIn struct{ agentArg }

type scratchIn struct {
	agentArg
	writeArg
	Append  string `json:"append,omitempty" jsonschema:"text to add to the scratch notes"`
	Replace string `json:"replace,omitempty" jsonschema:"new scratch notes, replacing the old"`
}

type logIn struct {
	agentArg
	writeArg
	Message   string   `json:"message,omitempty" jsonschema:"what you did; omit to list recent entries"`
	Type      string   `json:"type,omitempty" jsonschema:"what sort of entry (default implement)"`
	Status    string   `json:"status,omitempty" jsonschema:"where the work stands"`
	DependsOn []string `json:"depends_on,omitempty" jsonschema:"IDs of entries this depends on"`
	All       bool     `json:"all,omitempty" jsonschema:"list every agent's entries"`
}

type learnIn struct {
	agentArg
	writeArg
	Insight        string   `json:"insight" jsonschema:"what the next session must know"`
	Type           string   `json:"type" jsonschema:"what sort of learning"`
	Domain         string   `json:"domain" jsonschema:"area it belongs to, like auth or ci"`
	Classification string   `json:"classification,omitempty" jsonschema:"how long it stays true (default tactical)"`
	Resolution     string   `json:"resolution,omitempty" jsonschema:"how a failure was resolved (required for failures)"`
	Files          []string `json:"files,omitempty" jsonschema:"code files it cites, path or path:from-to: anchored, so readers see when that code changes"`
	Subject        string   `json:"subject,omitempty" jsonschema:"short key of what it is about"`
	Force          bool     `json:"force,omitempty" jsonschema:"record it though its domain is at the hard limit of current learnings; better: a narrower domain"`
}

type decideIn struct {
	agentArg
	writeArg
	Decision string   `json:"decision" jsonschema:"the choice made"`
	Over     []string `json:"over,omitempty" jsonschema:"alternatives rejected"`
	Because  string   `json:"because" jsonschema:"the rationale"`
	Subject  string   `json:"subject,omitempty" jsonschema:"short key of what it decides"`
}

type checkpointIn struct {
	agentArg
	Name string `json:"name" jsonschema:"checkpoint name (letters, digits, - and _)"`
	Note string `json:"note,omitempty" jsonschema:"what state this is"`
}

type handoffIn struct {
	agentArg
	writeArg
	Message string `json:"message" jsonschema:"what the next session should pick up"`
	To      string `json:"to,omitempty" jsonschema:"agent meant to pick it up; default: your next session"`
}

func (s *Server) register(srv *mcp.Server) {
	readOnly := &mcp.ToolAnnotations{ReadOnlyHint: true}
	mcp.AddTool(srv, &mcp.Tool{Name: "planq_context", Annotations: readOnly,
		Description: "Your focus, pending handoff, branch context, scratch, recent log, decisions, and the team's learnings. Call at the start of work and after a compaction."},
		func(_ context.Context, _ *mcp.CallToolRequest, in contextIn) (*mcp.CallToolResult, any, error) {
			return s.readAgent(in.Agent, func(a readmodel.Ref) (string, error) {
				sum, err := session.Summary(s.store.Handle, a)
				if err != nil {
					return "", err
				}
				return sum.Markdown() + skipped(sum.Problems) + next(call("planq_search", "query", "<topic>"), call("planq_log", "all", true)), nil
			})
		})
	mcp.AddTool(srv, &mcp.Tool{Name: "planq_scratch",
		Description: "Show your scratch notes, or append to or replace them."},
		func(ctx context.Context, _ *mcp.CallToolRequest, in scratchIn) (*mcp.CallToolResult, any, error) {
			return s.withAgent(in.Agent, func(a *agent.Agent) (string, error) {
				var err error
				switch {
				case in.Append != "" && in.Replace != "":
					return "", planqerr.New(planqerr.Invalid, "planq_scratch", "append and replace do not go together").
						WithHint("send append to add to the notes, or replace to rewrite them, not both")
				case in.Append != "":
					_, err = a.AppendScratch(ctx, in.Append, in.options())
				case in.Replace != "":
					_, err = a.SetScratch(ctx, in.Replace, in.options())
				}
				if err != nil {
					return "", err
				}
				text, err := a.Scratch()
				return text + next(call("planq_scratch", "append", "<text>")), err
			})
		})
	logSpec := changelog.KindLog.Spec()
	mcp.AddTool(srv, &mcp.Tool{Name: "planq_log",
		Description: "Add a changelog entry of what you did (message), or list recent entries (no message).",
		InputSchema: schemaFor[logIn](enums{"type": values(logSpec.Types), "status": values(logSpec.Statuses)})},
		func(ctx context.Context, _ *mcp.CallToolRequest, in logIn) (*mcp.CallToolResult, any, error) {
			return s.withAgent(in.Agent, func(a *agent.Agent) (string, error) {
				if strings.TrimSpace(in.Message) == "" {
					return s.listLog(a, in.All)
				}
				rec, err := changelog.NewLog(changelog.LogInput{Text: in.Message, Type: changelog.Type(in.Type),
					Status: changelog.Status(in.Status), DependsOn: in.DependsOn})
				return s.write(ctx, a, rec, in.options(), err)
			})
		})
	mcp.AddTool(srv, &mcp.Tool{Name: "planq_learn",
		Description: "Record a learning the next session must know: a convention, pattern, failure with its resolution, reference or guide. Not for what you did (use planq_log).",
		InputSchema: schemaFor[learnIn](enums{"type": values(changelog.KindLearning.Spec().Types), "classification": values(changelog.Classifications)})},
		func(ctx context.Context, _ *mcp.CallToolRequest, in learnIn) (*mcp.CallToolResult, any, error) {
			return s.withAgent(in.Agent, func(a *agent.Agent) (string, error) {
				rec, err := changelog.NewLearning(changelog.LearningInput{Text: in.Insight, Type: changelog.Type(in.Type),
					Domain: in.Domain, Classification: changelog.Classification(in.Classification), Resolution: in.Resolution,
					Files: in.Files, Subject: in.Subject})
				if err != nil {
					return "", err
				}
				return written(a.Learn(ctx, rec, agent.LearnOptions{WriteOptions: in.options(), Force: in.Force}))
			})
		})
	mcp.AddTool(srv, &mcp.Tool{Name: "planq_decide",
		Description: "Record a decision with the alternatives rejected and the rationale."},
		func(ctx context.Context, _ *mcp.CallToolRequest, in decideIn) (*mcp.CallToolResult, any, error) {
			return s.withAgent(in.Agent, func(a *agent.Agent) (string, error) {
				rec, err := changelog.NewDecision(changelog.DecisionInput{Decision: in.Decision, Alternatives: in.Over,
					Rationale: in.Because, Subject: in.Subject})
				return s.write(ctx, a, rec, in.options(), err)
			})
		})
	mcp.AddTool(srv, &mcp.Tool{Name: "planq_checkpoint",
		Description: "Save your state under a name: commits pending state and tags it."},
		func(ctx context.Context, _ *mcp.CallToolRequest, in checkpointIn) (*mcp.CallToolResult, any, error) {
			return s.withAgent(in.Agent, func(a *agent.Agent) (string, error) {
				return written(a.Checkpoint(ctx, in.Name, in.Note, agent.WriteOptions{}))
			})
		})
	mcp.AddTool(srv, &mcp.Tool{Name: "planq_handoff",
		Description: "Leave a handoff for your next session or another agent."},
		func(ctx context.Context, _ *mcp.CallToolRequest, in handoffIn) (*mcp.CallToolResult, any, error) {
			return s.withAgent(in.Agent, func(a *agent.Agent) (string, error) {
				rec, err := changelog.NewHandoff(changelog.HandoffInput{Text: in.Message, To: in.To})
				return s.write(ctx, a, rec, in.options(), err)
			})
		})
	s.registerSearch(srv, readOnly)
	s.registerQuery(srv, readOnly)
	s.registerRevalidate(srv)
	s.registerRetract(srv)
	s.registerEdit(srv)
	s.registerNote(srv)
	s.registerCurate(srv, readOnly)
	s.registerPropose(srv)
	s.registerRecord(srv)
}

// write commits a record the constructor made, or passes on why it could not.
func (s *Server) write(ctx context.Context, a *agent.Agent, rec *changelog.Record, opts agent.WriteOptions, err error) (string, error) {
	if err != nil {
		return "", err
	}
	return written(a.Write(ctx, rec, opts))
}

// written reports a write, with the calls to see it.
func written(w agent.Written, err error) (string, error) {
	if err != nil {
		return "", err
	}
	what := string(w.Kind) + " " + w.ID
	if w.ID == "" {
		what = w.Path
	}
	return fmt.Sprintf("recorded %s at %s (commit %s)", strings.TrimSpace(what), w.Path, w.Commit[:12]) +
		next(call("planq_get", "path", w.Path)), nil
}

func (s *Server) listLog(a *agent.Agent, all bool) (string, error) {
	view, err := s.store.Records.Log(readmodel.LogOptions{Agent: a.Name, All: all, Limit: 20})
	if err != nil {
		return "", err
	}
	var b strings.Builder
	for _, r := range view.Entries {
		fmt.Fprintf(&b, "%s %s %s %s (%s)\n", r.Timestamp.Format(readmodel.TimeLayout), r.ID, r.Agent, readmodel.Line(r), r.Path)
	}
	if b.Len() == 0 {
		b.WriteString("no entries yet\n")
	}
	b.WriteString(skipped(view.Problems))
	if len(view.Entries) == 0 {
		return b.String() + next(call("planq_log", "message", "<what you did>"), call("planq_search", "query", "<topic>")), nil
	}
	return b.String() + next(call("planq_get", "path", view.Entries[0].Path), call("planq_search", "query", "<topic>")), nil
}
