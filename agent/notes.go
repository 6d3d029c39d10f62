package agent

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/planq-dev/planq/internal/atomicfile"

	"github.com/planq-dev/planq/planqerr"
	"github.com/planq-dev/planq/project"
)

// The agent's two mutable notes, at the top of its worktree. Unlike records
// they are rewritten in place: they are the agent's working memory, not
// history (git keeps the history).
const (
	ScratchFile = project.ScratchFile
	FocusFile   = project.FocusFile
	focusHeader = "# Current focus\n\n"
)

// InitialNotes are the notes a new agent starts with.
func InitialNotes() map[string][]byte {
	return map[string][]byte{
		ScratchFile:        []byte("# Scratch\n"),
		FocusFile:          []byte(focusHeader),
		project.NotesInbox: []byte(notesInboxHeader),
	}
}

// Scratch returns the agent's scratch notes (see readmodel.Handle.Scratch).
func (a *Agent) Scratch() (string, error) { return a.store.Scratch(a.Ref) }

// Focus returns the agent's current focus, without the file's heading.
func (a *Agent) Focus() (string, error) { return a.store.Focus(a.Ref) }

// SetScratch replaces the scratch notes.
func (a *Agent) SetScratch(ctx context.Context, text string, opts WriteOptions) (Written, error) {
	return a.EditFile(ctx, ScratchFile, func(string) string { return ensureNewline(text) }, "scratch: replace", opts)
}

// AppendScratch adds text to the end of the scratch notes.
func (a *Agent) AppendScratch(ctx context.Context, text string, opts WriteOptions) (Written, error) {
	return a.EditFile(ctx, ScratchFile, func(old string) string {
		return ensureNewline(old) + ensureNewline(text)
	}, "scratch: append", opts)
}

// SetFocus records what the agent is working on now.
func (a *Agent) SetFocus(ctx context.Context, focus string, opts WriteOptions) (Written, error) {
	focus = strings.TrimSpace(focus)
	if focus == "" {
		return Written{}, planqerr.New(planqerr.Invalid, "focus", "is empty").WithHint("say what you work on: planq context set FOCUS")
	}
	return a.EditFile(ctx, FocusFile, func(string) string { return focusHeader + focus + "\n" }, "context: "+oneLine(focus), opts)
}

// EditFile rewrites one mutable file of the agent's worktree (a note, a
// branch context) under the agent's lock and commits it. edit gets the
// current content ("" when the file is new).
func (a *Agent) EditFile(ctx context.Context, name string, edit func(old string) string, message string, opts WriteOptions) (Written, error) {
	wt, unlock, err := a.lockedWorktree(ctx)
	if err != nil {
		return Written{}, err
	}
	defer unlock()
	path := filepath.Join(a.Dir, filepath.FromSlash(name))
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return Written{}, fmt.Errorf("failed to create %s: %w", filepath.Dir(path), err)
	}
	old, err := os.ReadFile(path)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return Written{}, fmt.Errorf("failed to read %s: %w", path, err)
	}
	data := []byte(edit(string(old)))
	if err := Guard(name, data, opts); err != nil {
		return Written{}, err
	}
	if err := atomicfile.WriteFile(path, data, 0o644); err != nil {
		return Written{}, fmt.Errorf("failed to write %s: %w", path, err)
	}
	commit, err := wt.CommitFiles(ctx, []string{name}, fmt.Sprintf("%s\n\n%s: %s\n", message, trailerAgent, a.Name))
	if err != nil {
		return Written{}, err
	}
	return Written{Path: name, Commit: commit.String(), Agent: a.Name}, nil
}

func ensureNewline(s string) string {
	if s == "" || strings.HasSuffix(s, "\n") {
		return s
	}
	return s + "\n"
}

func oneLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	if len(s) > 60 {
		s = s[:57] + "..."
	}
	return s
}
