package agent

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/internal/secrets"
	"github.com/planq-dev/planq/planqerr"
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

// Noted says what a note, or picking up the inbox, did.
type Noted struct {
	// Written are the notes committed, in one commit: the inbox's lines in
	// the order appended, then the note given, if any.
	Written []Written
	// Kept are the inbox's lines no note may hold (a credential, invalid
	// UTF-8, over a record's size): each stays in the inbox, and its error
	// names the file and line, says why and what to do.
	Kept []*planqerr.Error
}

// Note captures a raw note in one step, without reading anything: the note
// (its workspace and agent kind stamped on it), and every line appended to
// the inbox file since, in one commit. kind is the coding agent that
// captured it ("" for AgentKind's guess). A note that is refused is an
// error and leaves the inbox as it is; an inbox line that is refused stays
// in the inbox and is reported in Kept, the rest land.
func (a *Agent) Note(ctx context.Context, text string, typ changelog.Type, kind string, opts WriteOptions) (Noted, error) {
	if kind == "" {
		kind = CodingAgent()
	}
	rec, err := changelog.NewNote(changelog.NoteInput{Text: text, Type: typ, Workspace: a.workspaceName(), AgentKind: kind})
	if err != nil {
		return Noted{}, err
	}
	return a.notes(ctx, rec, kind, opts)
}

// PickUpNotes turns the lines appended to the inbox file into raw notes,
// in one commit, and takes them out of the inbox; nothing when it holds
// none. The lines no note may hold stay, reported in Kept.
func (a *Agent) PickUpNotes(ctx context.Context, opts WriteOptions) (Noted, error) {
	return a.notes(ctx, nil, CodingAgent(), opts)
}

func (a *Agent) notes(ctx context.Context, given *changelog.Record, kind string, opts WriteOptions) (Noted, error) {
	wt, unlock, err := a.lockedWorktree(ctx)
	if err != nil {
		return Noted{}, err
	}
	defer unlock()
	var recs []*changelog.Record
	base := now()
	if given != nil {
		// Checked before the inbox is read: a refused note changes nothing.
		a.stamp(ctx, given)
		if _, err := a.check(given, opts); err != nil {
			return Noted{}, err
		}
		recs, base = append(recs, given), given.Timestamp
	}
	var (
		res  Noted
		also alongside
	)
	if a.Dir != "" {
		in, err := a.readInbox(ctx, base, kind, opts)
		if err != nil {
			return Noted{}, err
		}
		recs = append(in.notes, recs...)
		res.Kept = in.kept
		if len(in.notes) > 0 {
			also = in.rewrite()
		}
	}
	if len(recs) == 0 {
		return res, nil
	}
	subject := fmt.Sprintf("note: %d raw notes", len(recs))
	if len(recs) == 1 {
		subject = "note: " + oneLine(recs[0].Body)
	}
	res.Written, err = a.writeMany(ctx, wt, recs, subject, opts, also)
	return res, err
}

// inbox is the inbox file as read: the notes its lines make, the lines no
// note may hold, and what the file holds once the notes are committed.
type inbox struct {
	path  string
	data  []byte // as read
	rest  []byte // the header and every line that became no note
	notes []*changelog.Record
	kept  []*planqerr.Error
}

// readInbox reads the inbox and checks each line as a note, stamped in the
// order appended, a nanosecond apart, before base.
func (a *Agent) readInbox(ctx context.Context, base time.Time, kind string, opts WriteOptions) (inbox, error) {
	in := inbox{path: filepath.Join(a.Dir, project.NotesInbox)}
	data, err := os.ReadFile(in.path)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return in, fmt.Errorf("failed to read %s: %w", in.path, err)
	}
	in.data = data
	rest := []byte(notesInboxHeader)
	lines := strings.Split(string(data), "\n")
	for i, line := range lines {
		text := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(line), "- "))
		switch {
		case text == "" || line+"\n" == notesInboxHeader:
			continue
		case strings.HasPrefix(text, "#"):
			rest = append(rest, line+"\n"...) // the agent's own comment: kept
			continue
		}
		rec, err := changelog.NewNote(changelog.NoteInput{Text: text, Workspace: a.workspaceName(), AgentKind: kind})
		if err == nil {
			rec.Timestamp = base.Add(time.Duration(i-len(lines)) * time.Nanosecond)
			a.stamp(ctx, rec)
			_, err = a.check(rec, opts)
		}
		if err != nil {
			in.kept = append(in.kept, keptLine(in.path, i+1, text, err))
			rest = append(rest, line+"\n"...)
			continue
		}
		in.notes = append(in.notes, rec)
	}
	in.rest = rest
	return in, nil
}

// keptLine says why line n of the inbox at path became no note, and what to
// do; it never repeats the line, which may hold a credential.
func keptLine(path string, n int, text string, err error) *planqerr.Error {
	subject := fmt.Sprintf("%s:%d", path, n)
	if planqerr.Is(err, planqerr.Refused) {
		rule := "a credential"
		if found := secrets.Scan(text); len(found) > 0 {
			rule = found[0].Rule
		}
		return planqerr.New(planqerr.Refused, subject, "looks like a credential (%s): left in the file, not taken as a note", rule).
			WithHint("remove the credential from that line and the next 'planq note TEXT' or session end takes it; if it is not one, 'planq note TEXT --allow-secret' takes it as it is")
	}
	problem := err.Error()
	var pe *planqerr.Error
	if errors.As(err, &pe) {
		problem = pe.Err.Error()
	}
	return planqerr.New(planqerr.KindOf(err), subject, "%s: left in the file, not taken as a note", problem).
		WithHint("rewrite that line as short text, or delete it; the next 'planq note TEXT' or session end takes it")
}

// rewrite is what the notes' commit carries besides them: the inbox without
// the lines that became notes, and the way back to it as it was.
func (in inbox) rewrite() alongside {
	var written []byte
	return alongside{
		paths: []string{project.NotesInbox},
		write: func() error {
			// What was appended since it was read stays, for the next time.
			written = slices.Concat(in.rest, appendedSince(in.path, in.data))
			if err := os.WriteFile(in.path, written, 0o644); err != nil {
				return fmt.Errorf("failed to rewrite %s: %w", in.path, err)
			}
			return nil
		},
		undo: func() {
			// Best effort: the error that stopped the commit is the one to report.
			_ = os.WriteFile(in.path, slices.Concat(in.data, appendedSince(in.path, written)), 0o644)
		},
	}
}

// appendedSince is what the file at path holds after was, when it still
// starts with was: lines an agent appended meanwhile.
func appendedSince(path string, was []byte) []byte {
	cur, err := os.ReadFile(path)
	if err != nil || !bytes.HasPrefix(cur, was) {
		return nil
	}
	return cur[len(was):]
}

// workspaceName is the name of the agent's code workspace ("" without one).
func (a *Agent) workspaceName() string {
	if a.Workspace == "" {
		return ""
	}
	return filepath.Base(a.Workspace)
}
