package agent

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/project"
)

// notesInboxHeader heads the inbox file: what to do with it, for an agent
// or a person who opens it.
const notesInboxHeader = "# Notes: append one line per observation; planq turns each into a raw note (planq note does the same in one step).\n"

// CodingAgent names the coding agent planq runs under, from what each sets
// in its environment ($PLANQ_AGENT_KIND first), "" when none is known.
func CodingAgent() string {
	if k := strings.TrimSpace(os.Getenv("PLANQ_AGENT_KIND")); k != "" {
		return k
	}
	for _, probe := range []struct{ env, kind string }{
		{"CLAUDECODE", "claude"}, {"CODEX_SANDBOX", "codex"}, {"CODEX_HOME", "codex"}, {"GEMINI_CLI", "gemini"},
		{"CURSOR_TRACE_ID", "cursor"}, {"OPENCODE", "opencode"},
	} {
		if os.Getenv(probe.env) != "" {
			return probe.kind
		}
	}
	return ""
}

// Note captures a raw note in one step, without reading anything: the note
// (its workspace and agent kind stamped on it), and every line appended to
// the inbox file since, in one commit. kind is the coding agent that
// captured it ("" for AgentKind's guess).
func (a *Agent) Note(ctx context.Context, text string, typ changelog.Type, kind string, opts WriteOptions) ([]Written, error) {
	if kind == "" {
		kind = CodingAgent()
	}
	rec, err := changelog.NewNote(changelog.NoteInput{Text: text, Type: typ, Workspace: a.workspaceName(), AgentKind: kind})
	if err != nil {
		return nil, err
	}
	return a.notes(ctx, []*changelog.Record{rec}, kind, opts)
}

// PickUpNotes turns the lines appended to the inbox file into raw notes,
// in one commit, and empties the inbox; nothing when it holds none.
func (a *Agent) PickUpNotes(ctx context.Context, opts WriteOptions) ([]Written, error) {
	return a.notes(ctx, nil, CodingAgent(), opts)
}

func (a *Agent) notes(ctx context.Context, recs []*changelog.Record, kind string, opts WriteOptions) ([]Written, error) {
	wt, unlock, err := a.lockedWorktree(ctx)
	if err != nil {
		return nil, err
	}
	defer unlock()
	var also []string
	if a.Dir != "" {
		inbox := filepath.Join(a.Dir, project.NotesInbox)
		data, err := os.ReadFile(inbox)
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("failed to read %s: %w", inbox, err)
		}
		base := time.Now().UTC()
		lines := strings.Split(string(data), "\n")
		for i, line := range lines {
			line = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(line), "- "))
			if line == "" || strings.HasPrefix(line, "#") {
				continue
			}
			rec, err := changelog.NewNote(changelog.NoteInput{Text: line, Workspace: a.workspaceName(), AgentKind: kind})
			if err != nil {
				return nil, err
			}
			// In the order appended, a nanosecond apart, before the note
			// written now.
			rec.Timestamp = base.Add(time.Duration(i-len(lines)) * time.Nanosecond)
			recs = append([]*changelog.Record{rec}, recs...)
		}
		if len(data) > 0 && string(data) != notesInboxHeader {
			if err := os.WriteFile(inbox, []byte(notesInboxHeader), 0o644); err != nil {
				return nil, fmt.Errorf("failed to empty %s: %w", inbox, err)
			}
			also = append(also, project.NotesInbox)
		}
	}
	if len(recs) == 0 {
		return nil, nil
	}
	subject := fmt.Sprintf("note: %d raw notes", len(recs))
	if len(recs) == 1 {
		subject = "note: " + oneLine(recs[0].Body)
	}
	return a.writeMany(ctx, wt, recs, subject, opts, also)
}

// workspaceName is the name of the agent's code workspace ("" without one).
func (a *Agent) workspaceName() string {
	if a.Workspace == "" {
		return ""
	}
	return filepath.Base(a.Workspace)
}
