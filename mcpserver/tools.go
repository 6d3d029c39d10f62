package mcpserver

import (
	"context"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/planqerr"
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

// author is who a tool writes as.
func author(a agentArg, w writeArg) session.Author {
	return session.Author{Agent: a.Agent, AllowSecret: w.AllowSecret}
}

// scopeArg is where a tool that may act on the user layer acts.
type scopeArg struct {
	Scope string `json:"scope,omitempty"`
}

// writeScopes are the scopes a record is written or acted on in.
var writeScopes = values([]session.Scope{session.ScopeProject, session.ScopeUser})

type contextIn struct{ agentArg }

type scratchIn struct {
	agentArg
	writeArg
	Append  string `json:"append,omitempty" jsonschema:"text to add"`
	Replace string `json:"replace,omitempty" jsonschema:"the new notes"`
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
	Insight        string   `json:"insight" jsonschema:"what to know"`
	Type           string   `json:"type"`
	Domain         string   `json:"domain" jsonschema:"like auth or ci"`
	Classification string   `json:"classification,omitempty" jsonschema:"default tactical"`
	Resolution     string   `json:"resolution,omitempty" jsonschema:"failures need one"`
	Files          []string `json:"files,omitempty" jsonschema:"code it cites: path or path:from-to"`
	EvidenceCommit string   `json:"evidence_commit,omitempty" jsonschema:"default HEAD"`
	EvidenceIssue  string   `json:"evidence_issue,omitempty" jsonschema:"URL or reference"`
	EvidenceFiles  []string `json:"evidence_files,omitempty" jsonschema:"files showing it"`
	Supersedes     string   `json:"supersedes,omitempty" jsonschema:"ID it replaces"`
	Subject        string   `json:"subject,omitempty" jsonschema:"short key of its topic"`
	Force          bool     `json:"force,omitempty" jsonschema:"even if the domain is full"`
	scopeArg
}

func (in learnIn) input() session.LearnInput {
	return session.LearnInput{LearningInput: changelog.LearningInput{Text: in.Insight, Type: changelog.Type(in.Type),
		Domain: in.Domain, Classification: changelog.Classification(in.Classification), Resolution: in.Resolution,
		Evidence:   changelog.Evidence{Commit: in.EvidenceCommit, Issue: in.EvidenceIssue, Files: in.EvidenceFiles},
		Supersedes: in.Supersedes, Subject: in.Subject, Files: in.Files},
		Author: author(in.agentArg, in.writeArg), Scope: session.Scope(in.Scope), Force: in.Force}
}

type decideIn struct {
	agentArg
	writeArg
	Decision   string   `json:"decision" jsonschema:"the choice made"`
	Over       []string `json:"over,omitempty" jsonschema:"alternatives rejected"`
	Because    string   `json:"because" jsonschema:"the rationale"`
	Supersedes string   `json:"supersedes,omitempty" jsonschema:"ID it replaces"`
	Subject    string   `json:"subject,omitempty" jsonschema:"short key of its topic"`
	scopeArg
}

type checkpointIn struct {
	agentArg
	Name string `json:"name" jsonschema:"letters, digits, - and _"`
	Note string `json:"note,omitempty" jsonschema:"what state this is"`
}

type handoffIn struct {
	agentArg
	writeArg
	Message string `json:"message" jsonschema:"what to pick up"`
	To      string `json:"to,omitempty" jsonschema:"agent to pick it up; default: you"`
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
		Description: "Your focus, handoff, branch context, scratch, recent log, decisions and the team's learnings: call at the start of work and after compaction."},
		func(ctx context.Context, _ *mcp.CallToolRequest, in contextIn) (*mcp.CallToolResult, any, error) {
			return s.call(func() (string, error) {
				sum, _, err := s.svc.Context(ctx, session.ContextInput{Agent: in.Agent, OrGlobal: true})
				if err != nil {
					return "", err
				}
				return sum.Markdown() + skipped(sum.Problems) + next(call("planq_search", "query", "<topic>"), call("planq_log", "all", true)), nil
			})
		})
	mcp.AddTool(srv, &mcp.Tool{Name: "planq_scratch", Annotations: annotate("Scratch notes", overwrites),
		Description: "Show, append to or replace your scratch notes."},
		func(ctx context.Context, _ *mcp.CallToolRequest, in scratchIn) (*mcp.CallToolResult, any, error) {
			return s.call(func() (string, error) { return s.scratch(ctx, in) })
		})
	logSpec := changelog.KindLog.Spec()
	mcp.AddTool(srv, &mcp.Tool{Name: "planq_log", Annotations: annotate("Log your work", adds),
		Description: "Log what you did (message), or list recent entries (no message).",
		InputSchema: schemaFor[logIn](enums{"type": values(logSpec.Types), "status": values(logSpec.Statuses)})},
		func(ctx context.Context, _ *mcp.CallToolRequest, in logIn) (*mcp.CallToolResult, any, error) {
			return s.call(func() (string, error) {
				if strings.TrimSpace(in.Message) == "" {
					return s.listLog(ctx, in.Agent, in.All)
				}
				return written(s.svc.AddLog(ctx, session.LogInput{Author: author(in.agentArg, in.writeArg),
					LogInput: changelog.LogInput{Text: in.Message, Type: changelog.Type(in.Type), Status: changelog.Status(in.Status), DependsOn: in.DependsOn}}))
			})
		})
	mcp.AddTool(srv, &mcp.Tool{Name: "planq_learn", Annotations: annotate("Record a learning", adds),
		Description: "Record what the next session must know (not what you did: planq_log).",
		InputSchema: schemaFor[learnIn](enums{"type": values(changelog.KindLearning.Spec().Types), "classification": values(changelog.Classifications), "scope": writeScopes})},
		func(ctx context.Context, _ *mcp.CallToolRequest, in learnIn) (*mcp.CallToolResult, any, error) {
			return s.call(func() (string, error) { return recorded(s.svc.Learn(ctx, in.input())) })
		})
	mcp.AddTool(srv, &mcp.Tool{Name: "planq_decide", Annotations: annotate("Record a decision", adds),
		Description: "Record a decision and its rationale.",
		InputSchema: schemaFor[decideIn](enums{"scope": writeScopes})},
		func(ctx context.Context, _ *mcp.CallToolRequest, in decideIn) (*mcp.CallToolResult, any, error) {
			return s.call(func() (string, error) {
				return recorded(s.svc.Decide(ctx, session.DecideInput{Author: author(in.agentArg, in.writeArg), Scope: session.Scope(in.Scope),
					DecisionInput: changelog.DecisionInput{Decision: in.Decision, Alternatives: in.Over, Rationale: in.Because, Supersedes: in.Supersedes, Subject: in.Subject}}))
			})
		})
	mcp.AddTool(srv, &mcp.Tool{Name: "planq_checkpoint", Annotations: annotate("Save a checkpoint", addsOnce),
		Description: "Commit your pending state and tag it with a name."},
		func(ctx context.Context, _ *mcp.CallToolRequest, in checkpointIn) (*mcp.CallToolResult, any, error) {
			return s.call(func() (string, error) {
				return written(s.svc.Checkpoint(ctx, session.CheckpointInput{Author: session.Author{Agent: in.Agent}, Name: in.Name, Note: in.Note}))
			})
		})
	mcp.AddTool(srv, &mcp.Tool{Name: "planq_handoff", Annotations: annotate("Leave a handoff", adds),
		Description: "Leave a handoff for your next session or another agent."},
		func(ctx context.Context, _ *mcp.CallToolRequest, in handoffIn) (*mcp.CallToolResult, any, error) {
			return s.call(func() (string, error) {
				return written(s.svc.Handoff(ctx, session.HandoffInput{Author: author(in.agentArg, in.writeArg),
					HandoffInput: changelog.HandoffInput{Text: in.Message, To: in.To}}))
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

// scratch changes the scratch notes as in asks, and shows them.
func (s *Server) scratch(ctx context.Context, in scratchIn) (string, error) {
	change := session.ScratchInput{Author: author(in.agentArg, in.writeArg), Text: in.Append}
	switch {
	case in.Append != "" && in.Replace != "":
		return "", planqerr.New(planqerr.Invalid, "planq_scratch", "append and replace do not go together").
			WithHint("send append to add to the notes, or replace to rewrite them, not both")
	case in.Replace != "":
		change.Text, change.Replace = in.Replace, true
	}
	if change.Text != "" {
		if _, err := s.svc.WriteScratch(ctx, change); err != nil {
			return "", err
		}
	}
	notes, err := s.svc.Scratch(ctx, in.Agent)
	return notes.Text + next(call("planq_scratch", "append", "<text>")), err
}

// recorded reports a learn's or a decide's write.
func recorded(r session.Recorded, err error) (string, error) { return written(r.Written, err) }

// written reports a write, with the calls to see it.
func written(w session.Written, err error) (string, error) {
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

func (s *Server) listLog(ctx context.Context, agent string, all bool) (string, error) {
	view, err := s.svc.Log(ctx, session.LogQuery{Agent: agent, All: all, Limit: 20})
	if err != nil {
		return "", err
	}
	var b strings.Builder
	for _, r := range view.Entries {
		fmt.Fprintf(&b, "%s %s %s %s (%s)\n", r.Timestamp.Format(changelog.TimeLayout), r.ID, r.Agent, r.Line(), r.Path)
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
