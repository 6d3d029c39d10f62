package hooks

import (
	"context"
	"encoding/json"
	"slices"
	"strings"

	"github.com/planq-dev/planq/planqerr"
)

// Agents whose hooks planq answers.
var Agents = []string{"claude", "codex", "gemini", "cursor"}

// Events planq handles, by planq's name; each agent's own names map here.
const (
	EventSessionStart = "session-start"
	EventPreCompact   = "pre-compact"
	EventSessionEnd   = "session-end"
	EventStop         = "stop"
)

// Events lists the events in help order.
var Events = []string{EventSessionStart, EventPreCompact, EventSessionEnd, EventStop}

// Request is one hook call: which event, from which agent, with the JSON
// the agent sent on stdin (nil when it sent none or sent garbage).
type Request struct {
	Event string
	Agent string
	Input map[string]any
}

// Source is how the session started, as the agent reports it: startup,
// resume, clear or compact. Agents name the field differently.
func (r Request) Source() string {
	for _, key := range []string{"source", "trigger"} {
		if s, ok := r.Input[key].(string); ok && s != "" {
			return s
		}
	}
	return "startup"
}

// Dir is the project directory the agent reports, if any.
func (r Request) Dir() string {
	for _, key := range []string{"cwd", "project_dir", "workspace_root"} {
		if s, ok := r.Input[key].(string); ok && s != "" {
			return s
		}
	}
	if roots, ok := r.Input["workspace_roots"].([]any); ok && len(roots) > 0 {
		if s, ok := roots[0].(string); ok {
			return s
		}
	}
	return ""
}

// ParseInput reads the agent's JSON leniently: a hook must answer even when
// the agent sends nothing it expected.
func ParseInput(data []byte) map[string]any {
	var m map[string]any
	if json.Unmarshal(data, &m) != nil {
		return map[string]any{}
	}
	return m
}

// Actions are what a handler may do; the command line wires them to prime
// and to committing the agent's pending state.
type Actions struct {
	// Prime returns the session-start context for source.
	Prime func(ctx context.Context, source string) (string, error)
	// Save commits the agent's pending state with reason.
	Save func(ctx context.Context, reason string) error
}

// Handle runs the handler for req and returns exactly what the agent
// accepts on stdout, and the error (if any) to log. It never blocks the
// agent: errors only mean less context, never a failed hook.
func Handle(ctx context.Context, req Request, act Actions) ([]byte, error) {
	switch req.Event {
	case EventSessionStart:
		text, err := act.Prime(ctx, req.Source())
		return SessionStartOutput(req.Agent, text), err
	case EventPreCompact:
		err := act.Save(ctx, "checkpoint before compaction")
		return NoOpOutput(req.Agent), err
	case EventSessionEnd, EventStop:
		err := act.Save(ctx, "save pending state at "+strings.ReplaceAll(req.Event, "-", " "))
		return NoOpOutput(req.Agent), err
	}
	return NoOpOutput(req.Agent), planqerr.New(planqerr.Invalid, "hook event "+`"`+req.Event+`"`, "is not an event planq handles").
		WithHint("use one of %s; 'planq setup %s' writes the hooks planq answers", strings.Join(Events, ", "), req.Agent)
}

// CheckAgent refuses an agent whose hooks planq does not answer: without
// knowing its format, nothing planq prints would be valid.
func CheckAgent(agent string) error {
	if slices.Contains(Agents, agent) {
		return nil
	}
	return planqerr.New(planqerr.Invalid, "agent "+`"`+agent+`"`, "planq answers no hooks of this agent").
		WithHint("use --agent %s", strings.Join(Agents, "|"))
}

// SessionStartOutput is the session-start answer in the form each agent
// validates. Empty text adds nothing.
func SessionStartOutput(agent, text string) []byte {
	var v any
	switch agent {
	case "claude", "codex":
		if text == "" {
			return NoOpOutput(agent)
		}
		v = map[string]any{"hookSpecificOutput": map[string]any{"hookEventName": "SessionStart", "additionalContext": text}}
	case "gemini":
		if text == "" {
			return NoOpOutput(agent)
		}
		v = map[string]any{"hookSpecificOutput": map[string]any{"additionalContext": text}}
	case "cursor":
		v = map[string]any{"continue": true}
		if text != "" {
			v = map[string]any{"continue": true, "additional_context": text}
		}
	default:
		return []byte(text)
	}
	return mustJSON(v)
}

// NoOpOutput is the answer that changes nothing: no output for Claude
// (plain text is context), an empty object for agents that read JSON only.
func NoOpOutput(agent string) []byte {
	switch agent {
	case "claude":
		return nil
	case "cursor":
		return mustJSON(map[string]any{"continue": true})
	default:
		return []byte("{}\n")
	}
}

func mustJSON(v any) []byte {
	data, err := json.Marshal(v)
	if err != nil {
		return []byte("{}\n") // only maps of strings and bools: cannot happen
	}
	return append(data, '\n')
}
