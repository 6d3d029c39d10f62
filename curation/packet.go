package curation

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/planqerr"
	"github.com/planq-dev/planq/readmodel"
)

// Rules are what the curating agent is asked to follow.
var Rules = []string{
	"Deduplicate: notes that say the same thing become one line.",
	"Drop what an instruction file already says; list those notes under entries_discarded with the reason.",
	"Route a note that holds for every agent to every instruction file; a note about one agent goes to that agent's file only.",
	"Place each addition under the section of the file it belongs to; add a section only when none fits.",
	"Keep each file's voice: its tone, its heading style, its bullet style.",
	"Never remove or reword existing content: a proposal only adds.",
	"Use only the files listed here, with their paths as listed.",
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
	Path    string `json:"path"`
	Exists  bool   `json:"exists"`
	SHA256  string `json:"sha256,omitempty"`
	Content string `json:"content"`
}

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
const Answer = `Answer with one proposal, as JSON, through 'planq propose' (on stdin) or the MCP tool planq_propose: ` +
	`{"proposed_files": {"<path>": "<the whole file as proposed>"}, "diff_summary": "<what it adds, in a few lines>", ` +
	`"entries_used": ["<note id>", ...], "entries_discarded": {"<note id>": "<why>"}}. Every raw note is used or discarded.`

// BuildPacket gathers the work packet: the raw notes on global and every
// agent branch (each once, oldest first), and the instruction files under
// codeRoot that exist (the project's list, see project.Config), with the
// SHA-256 of each as it is now.
func BuildPacket(store *readmodel.Handle, codeRoot string) (Packet, error) {
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
	if p.Files, err = InstructionFiles(codeRoot, store.Project.Config.InstructionFiles()); err != nil {
		return Packet{}, err
	}
	return p, nil
}

// InstructionFiles reads the instruction files under root that patterns
// name (paths, or globs like .cursor/rules/*.mdc), each once, sorted. What
// a glob matches under .git is left out, as git leaves it out; a file that
// is a symbolic link out of the work tree (or into .git) is an error:
// nothing outside the work tree goes into an agent's packet.
func InstructionFiles(root string, patterns []string) ([]File, error) {
	realRoot, err := filepath.EvalSymlinks(root)
	if err != nil {
		return nil, fmt.Errorf("failed to resolve %s: %w", root, err)
	}
	seen := map[string]bool{}
	var out []File
	for _, pat := range patterns {
		matches, err := filepath.Glob(filepath.Join(root, filepath.FromSlash(pat)))
		if err != nil {
			return nil, fmt.Errorf("failed to look for %s: %w", pat, err)
		}
		for _, m := range matches {
			rel, err := filepath.Rel(root, m)
			if err != nil || seen[rel] || !changelog.ValidRepoPath(filepath.ToSlash(rel)) {
				continue
			}
			info, err := os.Stat(m)
			if err != nil || !info.Mode().IsRegular() {
				continue
			}
			if real, err := filepath.EvalSymlinks(m); err != nil {
				return nil, fmt.Errorf("failed to resolve %s: %w", rel, err)
			} else if inside, err := filepath.Rel(realRoot, real); err != nil || !changelog.ValidRepoPath(filepath.ToSlash(inside)) {
				return nil, planqerr.New(planqerr.Refused, filepath.ToSlash(rel), "is a symbolic link to %s, outside the work tree or under .git", real).
					WithHint("make it a regular file in the repository, or leave it out of curation.instruction_files in .planq/config")
			}
			data, err := os.ReadFile(m)
			if err != nil {
				return nil, fmt.Errorf("failed to read %s: %w", rel, err)
			}
			seen[rel] = true
			out = append(out, File{Path: filepath.ToSlash(rel), Exists: true, SHA256: SHA256(data), Content: string(data)})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out, nil
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
		fence := "```"
		for strings.Contains(f.Content, fence) {
			fence += "`"
		}
		fmt.Fprintf(&b, "\n### %s (sha256 %s)\n\n%smarkdown\n%s\n%s\n", f.Path, f.SHA256[:12], fence, strings.TrimRight(f.Content, "\n"), fence)
	}
	fmt.Fprintf(&b, "\n## Answer\n\n%s\n", p.Answer)
	return b.String()
}
