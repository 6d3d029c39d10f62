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

// Inputs. Descriptions go to the agent, with every tool's before it calls
// any: together they stay under 10,000 characters (TestToolListFitsItsBudget).
// A parameter whose name and enumerated values say all has none, and the
// two nearly every tool takes are described once, in the instructions.

// instructions is what a client is told at initialization.
const instructions = "planq is this project's memory in git. Before answering about prior work, decisions or conventions, " +
	"and before you start a task, call planq_search. Record what you learn with planq_learn and what you do with planq_log. " +
	"Leave agent out: every tool acts for the agent mounted in the project (a read, where none is, reads the team's memory). " +
	"Set allow_secret only when a write was refused for a credential that is none."

type agentArg struct {
	Agent string `json:"agent,omitempty"`
}

// writeArg is what every tool that writes takes beside the agent.
type writeArg struct {
	AllowSecret bool `json:"allow_secret,omitempty"`
}

func (w writeArg) options() agent.WriteOptions { return agent.WriteOptions{AllowSecret: w.AllowSecret} }

type contextIn struct{ agentArg }

type scratchIn struct {
	agentArg
	writeArg
	Append  string `json:"append,omitempty" jsonschema:"text to add"`
	Replace string `json:"replace,omitempty" jsonschema:"text to replace the notes with"`
}

type logIn struct {
	agentArg
	writeArg
	Message   string   `json:"message,omitempty" jsonschema:"what you did; omit to list entries"`
	Type      string   `json:"type,omitempty" jsonschema:"default implement"`
	Status    string   `json:"status,omitempty"`
	DependsOn []string `json:"depends_on,omitempty" jsonschema:"entry IDs"`
	All       bool     `json:"all,omitempty" jsonschema:"list every agent's entries"`
}

type learnIn struct {
	agentArg
	writeArg
	Insight        string   `json:"insight" jsonschema:"what the next session must know"`
	Type           string   `json:"type"`
	Domain         string   `json:"domain" jsonschema:"its area, like auth or ci"`
	Classification string   `json:"classification,omitempty" jsonschema:"how long it stays true; default tactical"`
	Resolution     string   `json:"resolution,omitempty" jsonschema:"how the failure was resolved; failures need one"`
	Files          []string `json:"files,omitempty" jsonschema:"code it cites (path or path:from-to): readers see when it changes"`
	Subject        string   `json:"subject,omitempty" jsonschema:"short key of what it is about"`
	Force          bool     `json:"force,omitempty" jsonschema:"record though the domain is full (better: a narrower domain)"`
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
	Name string `json:"name" jsonschema:"letters, digits, - and _"`
	Note string `json:"note,omitempty" jsonschema:"what state this is"`
}

type handoffIn struct {
	agentArg
	writeArg
	Message string `json:"message" jsonschema:"what the next session should pick up"`
	To      string `json:"to,omitempty" jsonschema:"agent to pick it up; default: your next session"`
}

// effect is what a tool does to the project's memory, which its
// annotations tell the client: with none, a client must take every tool
// for one that destroys and reaches beyond the project.
type effect int

const (
	reads      effect = iota // changes nothing
	adds                     // adds a record (a commit) each call
	addsOnce                 // adds one; the same call again is refused, changing nothing
	overwrites               // may replace what is there; git history keeps the old
)

// annotate is a tool's annotations. No tool reaches beyond the project's
// state repository and code checkout. A correction or a retraction adds a
// record superseding the old one, which stays readable: only overwrites
// destroys.
func annotate(title string, e effect) *mcp.ToolAnnotations {
	no, destructive := false, e == overwrites
	return &mcp.ToolAnnotations{Title: title, ReadOnlyHint: e == reads, DestructiveHint: &destructive,
		IdempotentHint: e == reads || e == addsOnce, OpenWorldHint: &no}
}

func (s *Server) register(srv *mcp.Server) {
	mcp.AddTool(srv, &mcp.Tool{Name: "planq_context", Annotations: annotate("Session context", reads),
		Description: "Your focus, pending handoff, branch context, scratch, recent log, decisions and the team's learnings: call at the start of work and after a compaction."},
		func(_ context.Context, _ *mcp.CallToolRequest, in contextIn) (*mcp.CallToolResult, any, error) {
			return s.readAgent(in.Agent, func(a readmodel.Ref) (string, error) {
				sum, err := session.Summary(s.store.Handle, a)
				if err != nil {
					return "", err
				}
				return sum.Markdown() + skipped(sum.Problems) + next(call("planq_search", "query", "<topic>"), call("planq_log", "all", true)), nil
			})
		})
	mcp.AddTool(srv, &mcp.Tool{Name: "planq_scratch", Annotations: annotate("Scratch notes", overwrites),
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
	mcp.AddTool(srv, &mcp.Tool{Name: "planq_log", Annotations: annotate("Log your work", adds),
		Description: "Log what you did (message), or list recent entries (no message).",
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
	mcp.AddTool(srv, &mcp.Tool{Name: "planq_learn", Annotations: annotate("Record a learning", adds),
		Description: "Record what the next session must know: a convention, pattern, failure and its resolution, reference or guide. Not what you did (planq_log).",
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
	mcp.AddTool(srv, &mcp.Tool{Name: "planq_decide", Annotations: annotate("Record a decision", adds),
		Description: "Record a decision with the alternatives rejected and the rationale.",
		InputSchema: schemaFor[decideIn](nil)},
		func(ctx context.Context, _ *mcp.CallToolRequest, in decideIn) (*mcp.CallToolResult, any, error) {
			return s.withAgent(in.Agent, func(a *agent.Agent) (string, error) {
				rec, err := changelog.NewDecision(changelog.DecisionInput{Decision: in.Decision, Alternatives: in.Over,
					Rationale: in.Because, Subject: in.Subject})
				return s.write(ctx, a, rec, in.options(), err)
			})
		})
	mcp.AddTool(srv, &mcp.Tool{Name: "planq_checkpoint", Annotations: annotate("Save a checkpoint", addsOnce),
		Description: "Save your state under a name: commits pending state and tags it."},
		func(ctx context.Context, _ *mcp.CallToolRequest, in checkpointIn) (*mcp.CallToolResult, any, error) {
			return s.withAgent(in.Agent, func(a *agent.Agent) (string, error) {
				return written(a.Checkpoint(ctx, in.Name, in.Note, agent.WriteOptions{}))
			})
		})
	mcp.AddTool(srv, &mcp.Tool{Name: "planq_handoff", Annotations: annotate("Leave a handoff", adds),
		Description: "Leave a handoff for your next session or another agent."},
		func(ctx context.Context, _ *mcp.CallToolRequest, in handoffIn) (*mcp.CallToolResult, any, error) {
			return s.withAgent(in.Agent, func(a *agent.Agent) (string, error) {
				rec, err := changelog.NewHandoff(changelog.HandoffInput{Text: in.Message, To: in.To})
				return s.write(ctx, a, rec, in.options(), err)
			})
		})
	s.registerSearch(srv)
	s.registerQuery(srv)
	s.registerRevalidate(srv)
	s.registerRetract(srv)
	s.registerEdit(srv)
	s.registerNote(srv)
	s.registerCurate(srv, annotate("Curation packet", reads))
	s.registerPropose(srv)
	s.registerKB(srv)
	s.registerRecord(srv)
	if s.memoryTool {
		s.registerMemory(srv)
	}
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
