package hooks

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/planq-dev/planq/internal/atomicfile"

	"github.com/planq-dev/planq/planqerr"
)

// An Edit is planq's part of one settings file: it knows how to put it in,
// find it, and take it out again, leaving everything else as it was.
type Edit interface {
	// File is the path edited.
	File() string
	// Install returns the file with planq's part in it. exists says whether
	// the file was there; data is its content.
	Install(data []byte, exists bool) ([]byte, error)
	// Remove returns the file without planq's part; remove reports that the
	// file should go, because planq made it and nothing else is left.
	Remove(data []byte) (out []byte, remove bool, err error)
}

// FileState is what setup found (or did) in one file.
type FileState struct {
	File string `json:"file"`
	// State is one of installed, missing, stale, created, updated, removed,
	// unchanged, skipped.
	State  string `json:"state"`
	Detail string `json:"detail,omitempty"`
}

// Mode says what Apply does.
type Mode int

// Modes of Apply.
const (
	ModeInstall Mode = iota
	ModeCheck
	ModeRemove
	ModeDryRun
)

// Tracked says whether git tracks the file at path; nil tracks nothing.
type Tracked func(path string) bool

// Apply runs edits in mode and reports each file's state. It never writes a
// file it cannot parse, never follows a symbolic link, and writes atomically.
// A removal never deletes a file tracked says git tracks: it is left in
// place without planq's part, since deleting it would be a change to the
// user's code they did not ask for.
func Apply(edits []Edit, mode Mode, tracked Tracked) ([]FileState, error) {
	var out []FileState
	for _, e := range edits {
		st, err := applyOne(e, mode, tracked)
		if err != nil {
			return out, err
		}
		out = append(out, st)
	}
	return out, nil
}

func applyOne(e Edit, mode Mode, tracked Tracked) (FileState, error) {
	f := settingFile{path: e.File()}
	st := FileState{File: f.path}
	info, err := os.Lstat(f.path)
	f.info, f.exists = info, err == nil
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return st, fmt.Errorf("failed to inspect %s: %w", f.path, err)
	}
	if f.exists && info.Mode()&os.ModeSymlink != 0 {
		st.State, st.Detail = "skipped", "a symbolic link: planq leaves it alone; edit the file it points to by hand"
		return st, nil
	}
	if f.exists {
		if f.data, err = os.ReadFile(f.path); err != nil {
			return st, fmt.Errorf("failed to read %s: %w", f.path, err)
		}
	}
	switch mode {
	case ModeRemove:
		return f.remove(e, tracked)
	case ModeInstall, ModeCheck, ModeDryRun:
		return f.install(e, mode)
	}
	return st, fmt.Errorf("unknown setup mode %d", mode)
}

// settingFile is a settings file as setup found it: its content, when it
// exists.
type settingFile struct {
	path   string
	info   os.FileInfo
	exists bool
	data   []byte
}

// remove takes planq's part out of the file: the file goes when planq
// made it and nothing else is left, unless git tracks it.
func (f settingFile) remove(e Edit, tracked Tracked) (FileState, error) {
	st := FileState{File: f.path, State: "unchanged"}
	if !f.exists {
		return st, nil
	}
	out, remove, err := e.Remove(f.data)
	if err != nil {
		return st, refuse(f.path, err)
	}
	switch {
	case remove && tracked != nil && tracked(f.path):
		st.State, st.Detail = "updated", "git tracks it: planq's part taken out, the file kept"
		return st, writeAtomic(f.path, out, f.info)
	case remove:
		st.State = "removed"
		if err := os.Remove(f.path); err != nil {
			return st, err
		}
		removeEmptyAgentDirs(filepath.Dir(f.path))
		return st, nil
	case bytes.Equal(out, f.data):
		return st, nil
	}
	st.State = "updated"
	return st, writeAtomic(f.path, out, f.info)
}

// install puts planq's part in the file; with ModeCheck it only says
// whether it is there, with ModeDryRun what would change.
func (f settingFile) install(e Edit, mode Mode) (FileState, error) {
	st := FileState{File: f.path}
	out, err := e.Install(f.data, f.exists)
	if err != nil {
		return st, refuse(f.path, err)
	}
	switch {
	case f.exists && bytes.Equal(out, f.data) && mode == ModeCheck:
		st.State = "installed"
		return st, nil
	case f.exists && bytes.Equal(out, f.data):
		st.State = "unchanged"
		return st, nil
	case mode == ModeCheck:
		st.State = "missing"
		if f.exists && containsMarker(f.data) {
			st.State = "stale"
		}
		return st, nil
	case mode == ModeDryRun:
		st.State, st.Detail = "would change", diffSummary(f.data, out)
		return st, nil
	}
	st.State = "updated"
	if !f.exists {
		st.State = "created"
		if err := os.MkdirAll(filepath.Dir(f.path), 0o755); err != nil {
			return st, fmt.Errorf("failed to create %s: %w", filepath.Dir(f.path), err)
		}
	}
	return st, writeAtomic(f.path, out, f.info)
}

func refuse(path string, err error) error {
	return planqerr.New(planqerr.Refused, path, "%w", err).
		WithHint("fix the file by hand (planq never rewrites a file it cannot parse), then run setup again")
}

func containsMarker(data []byte) bool {
	return bytes.Contains(data, []byte("planq")) // any trace of planq: something of ours is out of date
}

func diffSummary(old, new []byte) string {
	return fmt.Sprintf("%d bytes -> %d bytes", len(old), len(new))
}

// writeAtomic replaces path with data through a temporary file and a
// rename, keeping the file's mode.
func writeAtomic(path string, data []byte, info os.FileInfo) error {
	mode := os.FileMode(0o644)
	if info != nil {
		mode = info.Mode().Perm()
	}
	if err := atomicfile.WriteFile(path, data, mode); err != nil {
		return fmt.Errorf("failed to write %s: %w", path, err)
	}
	return nil
}

// contentHash fingerprints the text planq puts in a fenced block, so that
// --check can tell an up-to-date block from a stale one.
func contentHash(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])[:12]
}

// BlockVersion is the format version written into fenced blocks.
const BlockVersion = 1

// agentDirs are the directories setup creates for agents' settings; one
// that a removal leaves empty goes too, and so on up.
var agentDirs = map[string]bool{".claude": true, ".codex": true, ".gemini": true, ".vscode": true,
	".github": true, ".cursor": true, ".windsurf": true, "rules": true, ".planq": true}

func removeEmptyAgentDirs(dir string) {
	for agentDirs[filepath.Base(dir)] {
		if os.Remove(dir) != nil { // fails unless empty: the user's files stay
			return
		}
		dir = filepath.Dir(dir)
	}
}

// MarkdownBlock is planq's fenced block in a Markdown file (AGENTS.md,
// GEMINI.md, copilot-instructions.md): between two HTML comments that carry
// a version and a hash of the content.
type MarkdownBlock struct {
	Path    string
	Content string
	// User is the agent whose setup writes the block. Agents that read one
	// file (Codex and opencode both read AGENTS.md) share one block, which
	// lists its users: removing one agent's setup keeps the block while
	// another still uses it.
	User string
}

// File implements Edit.
func (m MarkdownBlock) File() string { return m.Path }

const mdBegin, mdEnd = "<!-- planq:begin", "<!-- planq:end -->"

// usersPrefix starts the list of a block's users in its begin marker.
const usersPrefix = "for="

func (m MarkdownBlock) block(users []string) string {
	body := strings.TrimRight(m.Content, "\n")
	head := fmt.Sprintf("%s v%d sha256:%s", mdBegin, BlockVersion, contentHash(body))
	if len(users) > 0 {
		head += " " + usersPrefix + strings.Join(users, ",")
	}
	return head + " -->\n" + body + "\n" + mdEnd + "\n"
}

// blockUsers reads the users listed in the block of text, if any.
func blockUsers(text string) ([]string, error) {
	start, _, err := findBlock(text, mdBegin, mdEnd)
	if err != nil || start < 0 {
		return nil, err
	}
	line, _, _ := strings.Cut(text[start:], "\n")
	for _, field := range strings.Fields(line) {
		if list, ok := strings.CutPrefix(field, usersPrefix); ok {
			return strings.Split(list, ","), nil
		}
	}
	return nil, nil
}

// Install implements Edit: replace planq's block, or append it, with this
// agent among its users.
func (m MarkdownBlock) Install(data []byte, exists bool) ([]byte, error) {
	users, err := blockUsers(string(data))
	if err != nil {
		return nil, err
	}
	if m.User != "" && !slices.Contains(users, m.User) {
		users = append(users, m.User)
		slices.Sort(users)
	}
	return installBlock(data, exists, mdBegin, mdEnd, m.block(users))
}

// Remove implements Edit: take this agent off the block's users, and the
// block out (with the blank line Install put before it) when no other
// agent uses it.
func (m MarkdownBlock) Remove(data []byte) ([]byte, bool, error) {
	users, err := blockUsers(string(data))
	if err != nil {
		return nil, false, err
	}
	others := slices.DeleteFunc(slices.Clone(users), func(u string) bool { return u == m.User })
	if m.User != "" && len(others) > 0 {
		out, err := installBlock(data, true, mdBegin, mdEnd, m.block(others))
		return out, false, err
	}
	return removeBlock(data, mdBegin, mdEnd)
}

func installBlock(data []byte, exists bool, begin, end, block string) ([]byte, error) {
	text := string(data)
	start, stop, err := findBlock(text, begin, end)
	if err != nil {
		return nil, err
	}
	if start >= 0 {
		return []byte(text[:start] + block + text[stop:]), nil
	}
	if !exists || len(text) == 0 {
		return []byte(block), nil
	}
	if !strings.HasSuffix(text, "\n") {
		text += "\n"
	}
	return []byte(text + "\n" + block), nil
}

func removeBlock(data []byte, begin, end string) ([]byte, bool, error) {
	text := string(data)
	start, stop, err := findBlock(text, begin, end)
	if err != nil || start < 0 {
		return data, false, err
	}
	before := text[:start]
	if stop == len(text) && strings.HasSuffix(before, "\n\n") {
		before = strings.TrimSuffix(before, "\n")
	}
	out := before + text[stop:]
	return []byte(out), out == "", nil
}

// findBlock locates a fenced block, whole lines from begin to end.
func findBlock(text, begin, end string) (int, int, error) {
	start := strings.Index(text, begin)
	if start < 0 {
		return -1, -1, nil
	}
	if start > 0 && text[start-1] != '\n' {
		return -1, -1, errors.New("planq's begin marker is not at the start of a line")
	}
	rel := strings.Index(text[start:], end)
	if rel < 0 {
		return -1, -1, errors.New("planq's block has a begin marker but no end marker")
	}
	stop := start + rel + len(end)
	if stop < len(text) && text[stop] == '\n' {
		stop++
	}
	return start, stop, nil
}

// OwnedFile is a file planq writes whole (a Cursor or Windsurf rule). It is
// recognised by a marker line, and never written over a file that lacks it.
type OwnedFile struct {
	Path    string
	Content string
}

// ownedMarker is written into every whole file planq owns.
const ownedMarker = "planq-managed"

// File implements Edit.
func (o OwnedFile) File() string { return o.Path }

// Install implements Edit.
func (o OwnedFile) Install(data []byte, exists bool) ([]byte, error) {
	if exists && !bytes.Contains(data, []byte(ownedMarker)) {
		return nil, errors.New("the file exists and is not planq's; move it away or merge planq's rule into it by hand")
	}
	return []byte(o.Content), nil
}

// Remove implements Edit.
func (o OwnedFile) Remove(data []byte) ([]byte, bool, error) {
	if !bytes.Contains(data, []byte(ownedMarker)) {
		return data, false, nil
	}
	return nil, true, nil
}
