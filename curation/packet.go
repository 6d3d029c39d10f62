package curation

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/internal/untrusted"
	"github.com/planq-dev/planq/readmodel"
	"github.com/planq-dev/planq/staterepo"
)

// Rules are what the curating agent is asked to follow.
var Rules = []string{
	"Deduplicate: notes that say the same thing become one line.",
	"Drop what an instruction file already says; list those notes under entries_discarded with the reason.",
	"Route a note that holds for every agent to every instruction file; a note about one agent goes to that agent's file only.",
	"A file that governs a directory (governs: pkg/foo/) takes only what concerns the files under it; what holds for the whole repository goes to the files at the root.",
	"Place each addition under the section of the file it belongs to; add a section only when none fits.",
	"Keep each file's voice: its tone, its heading style, its bullet style.",
	"Never remove or reword existing content: a proposal only adds.",
	"Use only the files listed here, with their paths as listed; never propose a symbolic link or a file that only imports another: propose the file it leads to.",
}

// Note is a raw note as the packet gives it.
type Note struct {
	ID        string    `json:"id"`
	Agent     string    `json:"agent"`
	AgentKind string    `json:"agent_kind,omitempty"`
	Workspace string    `json:"workspace,omitempty"`
	Type      string    `json:"type"`
	Time      time.Time `json:"time"`
	Text      string    `json:"text"`
}

// File is an instruction file as the code repository holds it now.
type File struct {
	Path   string `json:"path"`
	Exists bool   `json:"exists"`
	// SHA256 is the content's, for a file to propose; a symbolic link has
	// none: it is not a file to write to.
	SHA256  string `json:"sha256,omitempty"`
	Content string `json:"content"`
	// Governs is the directory a nested AGENTS.md, CLAUDE.md or GEMINI.md
	// instructs ("pkg/foo/"): agents read it for the files under it.
	Governs string `json:"governs,omitempty"`
	// LinkTo says the file is a symbolic link, and to what: the file's
	// path from the repository's root when it is inside the work tree,
	// else what the link holds. Whoever reads the link reads that file.
	LinkTo string `json:"link_to,omitempty"`
	// OnlyImports are the files a file that holds nothing but imports
	// ("@AGENTS.md") imports, by their paths from the root where they are
	// inside the work tree: the content an agent reads is theirs.
	OnlyImports []string `json:"only_imports,omitempty"`
	// Note says, for a link or a file that only imports, what to propose
	// instead: the line the packet's text gives it.
	Note string `json:"note,omitempty"`
	// Unread says why planq did not read the file: it is no regular file
	// (a FIFO would block), or larger than an instruction file planq
	// writes. Its content is empty, and it is no file to propose.
	Unread string `json:"unread,omitempty"`
}

// Proposable reports whether a proposal may name the file: it is no
// link, holds more than imports, and planq could read it.
func (f File) Proposable() bool { return f.LinkTo == "" && len(f.OnlyImports) == 0 && f.Unread == "" }

// Packet is the curating agent's work: every raw note of every agent, the
// instruction files, and the rules; and how to answer.
type Packet struct {
	Project string   `json:"project"`
	Rules   []string `json:"rules"`
	Files   []File   `json:"files"`
	Notes   []Note   `json:"notes"`
	Answer  string   `json:"answer"`
}

// Answer says how the curating agent answers.
const Answer = `Answer with one proposal as bare JSON: the JSON object alone, with no code fence and no text before or after it. ` +
	`It goes to 'planq propose' (on stdin) or to the MCP tool planq_propose: ` +
	`{"proposed_files": {"<path>": "<the whole file as proposed>"}, "diff_summary": "<what it adds, in a few lines>", ` +
	`"entries_used": ["<note id>", ...], "entries_discarded": {"<note id>": "<why>"}}. Every raw note is used or discarded.`

// BuildPacket gathers the work packet: the raw notes on global and every
// agent branch (each once, oldest first), and the instruction files under
// codeRoot that exist (the project's list, see project.Config), with the
// SHA-256 of each as it is now.
func BuildPacket(ctx context.Context, store *readmodel.Handle, codeRoot string) (Packet, error) {
	p := Packet{Project: store.Project.Config.Project, Rules: Rules, Answer: Answer, Notes: []Note{}, Files: []File{}}
	set, err := store.Records.All(changelog.KindNote)
	if err != nil {
		return Packet{}, err
	}
	for _, r := range set.Current() {
		if r.Status == changelog.StatusRaw {
			p.Notes = append(p.Notes, Note{ID: r.ID, Agent: r.Agent, AgentKind: r.AgentKind, Workspace: r.Workspace, Type: string(r.Type),
				Time: r.Timestamp, Text: r.Body})
		}
	}
	if p.Files, err = InstructionFiles(ctx, codeRoot, store.Project.Config.InstructionFiles()); err != nil {
		return Packet{}, err
	}
	return p, nil
}

// InstructionFiles reads the instruction files of the checkout at root:
// the files git sees there (tracked, or untracked and not ignored: a
// dependency's AGENTS.md under node_modules is not the project's) whose
// paths match patterns (paths, or globs like .cursor/rules/*.mdc and
// **/AGENTS.md, where ** is any number of directories, none too), sorted.
//
// A symbolic link is shown as one (File.LinkTo), never read as a file of
// its own: a link to an instruction file with no content (the file is
// listed itself), a link to another file inside the work tree with that
// file's content to read, and a link out of the work tree, into .git or
// to nothing with neither. A file that holds nothing but imports
// (@AGENTS.md) says which files it imports. A nested AGENTS.md, CLAUDE.md
// or GEMINI.md says which directory it governs.
func InstructionFiles(ctx context.Context, root string, patterns []string) ([]File, error) {
	realRoot, err := filepath.EvalSymlinks(root)
	if err != nil {
		return nil, fmt.Errorf("failed to resolve %s: %w", root, err)
	}
	paths, err := staterepo.OpenCode(root).Files(ctx)
	if err != nil {
		return nil, err
	}
	out := []File{}
	for _, rel := range paths {
		if !changelog.ValidRepoPath(rel) || !listed(rel, patterns) {
			continue
		}
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		f, ok, err := instructionFile(realRoot, root, rel, patterns)
		if err != nil {
			return nil, err
		}
		if ok {
			out = append(out, f)
		}
	}
	return out, nil
}

// instructionFile reads the instruction file rel under root, false for
// one that is gone from the checkout or is no file.
func instructionFile(realRoot, root, rel string, patterns []string) (File, bool, error) {
	full := filepath.Join(root, filepath.FromSlash(rel))
	info, err := os.Lstat(full)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return File{}, false, nil // in the index, deleted from the checkout
	case err != nil:
		return File{}, false, fmt.Errorf("failed to read %s: %w", rel, err)
	}
	f := File{Path: rel, Exists: true, Governs: governs(rel)}
	if info.Mode()&fs.ModeSymlink != 0 {
		return link(f, realRoot, full, patterns), true, nil
	}
	if info.IsDir() {
		return File{}, false, nil // a submodule
	}
	// A FIFO, or a file swapped for one since Lstat, would block the
	// read; a file of gigabytes would fill the memory.
	data, err := untrusted.ReadFile(realRoot, full, MaxFileSize)
	if untrusted.ReasonOf(err) != 0 {
		f.Unread = untrusted.Why(err)
		f.Note = fmt.Sprintf("Not read (%s): planq neither reads nor writes it.", strings.TrimSuffix(f.Unread, ": not read"))
		return f, true, nil
	}
	if err != nil {
		return File{}, false, fmt.Errorf("failed to read %s: %w", rel, err)
	}
	f.SHA256, f.Content = SHA256(data), string(data)
	if f.OnlyImports = onlyImports(rel, f.Content); f.OnlyImports != nil {
		f.Note = fmt.Sprintf("This file only imports %s: whoever reads %s reads %s; propose %s rather than this file.",
			andList(f.OnlyImports), rel, andList(f.OnlyImports), orList(f.OnlyImports))
	}
	return f, true, nil
}

// link describes f, a symbolic link at full: where it points, and what to
// propose instead.
func link(f File, realRoot, full string, patterns []string) File {
	dest, err := os.Readlink(full)
	if err != nil {
		dest = "?"
	}
	f.LinkTo = dest
	real, err := filepath.EvalSymlinks(full)
	if err != nil {
		f.Note = fmt.Sprintf("A symbolic link to %s, which does not exist: planq neither reads nor writes it.", dest)
		return f
	}
	in, err := filepath.Rel(realRoot, real)
	target := filepath.ToSlash(in)
	if err != nil || !changelog.ValidRepoPath(target) {
		f.Note = fmt.Sprintf("A symbolic link to %s, outside the work tree or under .git: planq neither reads nor writes it.", dest)
		return f
	}
	f.LinkTo = target
	if info, err := os.Stat(real); err != nil || !info.Mode().IsRegular() {
		f.Note = fmt.Sprintf("A symbolic link to %s, which is not a file: planq neither reads nor writes it.", target)
		return f
	}
	if listed(target, patterns) {
		f.Note = fmt.Sprintf("A symbolic link to %s: whoever reads %s reads %s; propose %s, never %s.", target, f.Path, target, target, f.Path)
		return f
	}
	f.Note = fmt.Sprintf("A symbolic link to %s, which is not one of the project's instruction files: read it here, propose neither "+
		"(to curate it, add %s to curation.instruction_files in .planq/config).", target, target)
	if data, err := untrusted.ReadFile(realRoot, real, MaxFileSize); err == nil && utf8.Valid(data) {
		f.Content = string(data)
	}
	return f
}

// scoped are the instruction files an agent reads for the directory they
// are in and the files under it.
var scoped = []string{"AGENTS.md", "CLAUDE.md", "GEMINI.md"}

// governs is the directory a nested scoped file governs ("pkg/foo/"), ""
// for any other.
func governs(rel string) string {
	dir, name := path.Split(rel)
	if dir == "" || !slices.Contains(scoped, name) {
		return ""
	}
	return dir
}

// onlyImports gives the files a file imports when it holds nothing but
// import lines ("@AGENTS.md", Claude Code's import), else nil. An import
// is relative to the file's directory; one that leaves the work tree (or
// names a home directory) is given as written.
func onlyImports(rel, content string) []string {
	var out []string
	for _, line := range strings.Split(content, "\n") {
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		imp, ok := strings.CutPrefix(line, "@")
		if !ok || imp == "" || strings.ContainsAny(imp, " \t") {
			return nil
		}
		if p := path.Join(path.Dir(rel), imp); !strings.HasPrefix(imp, "~") && !path.IsAbs(imp) && changelog.ValidRepoPath(p) {
			imp = p
		}
		out = append(out, imp)
	}
	return out
}

// andList joins words as "a, b and c".
func andList(words []string) string {
	if len(words) < 2 {
		return strings.Join(words, "")
	}
	return strings.Join(words[:len(words)-1], ", ") + " and " + words[len(words)-1]
}

// fileFacts says what a file is, in its heading: a link and where to, or
// its hash; the directory it governs; what it imports.
func fileFacts(f File) string {
	var facts []string
	switch {
	case f.LinkTo != "":
		facts = append(facts, "symbolic link to "+f.LinkTo)
	case f.Unread != "":
		facts = append(facts, "not read")
	default:
		facts = append(facts, "sha256 "+f.SHA256[:min(12, len(f.SHA256))])
	}
	if f.Governs != "" {
		facts = append(facts, "governs "+f.Governs)
	}
	if len(f.OnlyImports) > 0 {
		facts = append(facts, "only imports "+andList(f.OnlyImports))
	}
	return strings.Join(facts, ", ")
}

// Markdown is the packet as an agent reads it in a prompt: the rules, the
// files as they are, the notes, and how to answer.
func (p Packet) Markdown() string {
	var b strings.Builder
	fmt.Fprintf(&b, "# Curate the raw notes of %s into its instruction files\n\n## Rules\n\n", p.Project)
	for _, r := range p.Rules {
		fmt.Fprintf(&b, "- %s\n", r)
	}
	fmt.Fprintf(&b, "\n## Raw notes (%d)\n\n", len(p.Notes))
	if len(p.Notes) == 0 {
		b.WriteString("None: nothing to curate.\n")
	}
	for _, n := range p.Notes {
		who := n.Agent
		if n.AgentKind != "" {
			who += ", " + n.AgentKind
		}
		if n.Workspace != "" {
			who += ", in " + n.Workspace
		}
		fmt.Fprintf(&b, "- %s [%s] (%s, %s): %s\n", n.ID, n.Type, who, n.Time.UTC().Format("2006-01-02"), strings.ReplaceAll(n.Text, "\n", " "))
	}
	fmt.Fprintf(&b, "\n## Instruction files (%d)\n", len(p.Files))
	if len(p.Files) == 0 {
		b.WriteString("\nNone exists yet: propose the one the notes call for (AGENTS.md serves most agents).\n")
	}
	for _, f := range p.Files {
		b.WriteString("\n### " + f.Path + " (" + fileFacts(f) + ")\n")
		if f.Note != "" {
			b.WriteString("\n" + f.Note + "\n")
		}
		if f.Content == "" && (f.LinkTo != "" || f.Unread != "") {
			continue
		}
		fence := "```"
		for strings.Contains(f.Content, fence) {
			fence += "`"
		}
		fmt.Fprintf(&b, "\n%smarkdown\n%s\n%s\n", fence, strings.TrimRight(f.Content, "\n"), fence)
	}
	fmt.Fprintf(&b, "\n## Answer\n\n%s\n", p.Answer)
	return b.String()
}
