package importing

import (
	"cmp"
	"regexp"
	"slices"
	"strings"
	"sync"

	"go.yaml.in/yaml/v3"
)

// Codex keeps one memory for all of a person's projects, under
// <codex dir>/memories:
//
//   - MEMORY.md, blocks of entries, each opened by a YAML header whose
//     rollout_summary_files name the sessions it came from with their
//     cwd ("(success, cwd=/repo/path, updated_at=...)") and whose
//     description says what the block is about;
//   - memory_summary.md, "## User Profile" (the person), "## General Tips"
//     (what helps every session) and "## What's in Memory" (an index of
//     MEMORY.md).
//
// A block is the project's when one of its sessions ran in the checkout
// (or below it): its bullets become learnings with the block's
// description as their subject. Another project's block, and one that
// names no cwd, are skipped and said so. Of the summary, the general tips
// alone are taken: the profile is about the person, as Claude Code's
// memories of type user are, and the index points at what MEMORY.md holds.

var (
	// A block's header opens with a "---" line followed by a YAML key.
	codexHeaderKeyRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*:`) })
	codexCwdRE       = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\bcwd=([^,)]+)`) })
)

// codexPieces reads Codex's memory files; ofProject tells a session's cwd
// of this project.
func codexPieces(ofProject func(cwd string) bool) piecesOf {
	return func(origin, name, content string, _ func(string) bool) ([]Piece, []Skip, error) {
		if strings.EqualFold(name, "memory_summary.md") {
			return codexSummaryPieces(origin, content), []Skip{{Source: SourceAgentMemories, Line: 1,
				Why: "only its General Tips are taken: its User Profile is about the person, and What's in Memory indexes MEMORY.md"}}, nil
		}
		return codexMemoryPieces(origin, content, ofProject)
	}
}

// codexBlock is one block of MEMORY.md: its header's text, the line its
// body starts on, and the body.
type codexBlock struct {
	header string
	line   int
	body   []string
}

// codexBlocks cuts MEMORY.md into its blocks; text before the first
// header is a block without one.
func codexBlocks(content string) []codexBlock {
	lines := strings.Split(strings.ReplaceAll(content, "\r\n", "\n"), "\n")
	var blocks []codexBlock
	cur := codexBlock{line: 1}
	for i := 0; i < len(lines); i++ {
		if strings.TrimSpace(lines[i]) != "---" || i+1 >= len(lines) || !codexHeaderKeyRE().MatchString(lines[i+1]) {
			cur.body = append(cur.body, lines[i])
			continue
		}
		end := i + 1
		for end < len(lines) && strings.TrimSpace(lines[end]) != "---" {
			end++
		}
		if end == len(lines) {
			cur.body = append(cur.body, lines[i:]...) // a header never closed: text
			break
		}
		blocks = append(blocks, cur)
		cur = codexBlock{header: strings.Join(lines[i+1:end], "\n"), line: end + 2}
		i = end
	}
	return append(blocks, cur)
}

// codexMemoryPieces are the learnings of the blocks of MEMORY.md that
// are the project's.
func codexMemoryPieces(origin, content string, ofProject func(string) bool) ([]Piece, []Skip, error) {
	var out []Piece
	var skips []Skip
	for _, b := range codexBlocks(content) {
		body := strings.Join(b.body, "\n")
		if strings.TrimSpace(body) == "" {
			continue
		}
		var header struct {
			Files       []string `yaml:"rollout_summary_files"`
			Description string   `yaml:"description"`
		}
		if b.header != "" {
			if err := yaml.Unmarshal([]byte(b.header), &header); err != nil {
				skips = append(skips, Skip{Source: SourceAgentMemories, Line: b.line - 1, Why: "a block whose header is no YAML: not read"})
				continue
			}
		}
		var cwds []string
		for _, f := range header.Files {
			for _, m := range codexCwdRE().FindAllStringSubmatch(f, -1) {
				cwds = append(cwds, strings.TrimSpace(m[1]))
			}
		}
		if !slices.ContainsFunc(cwds, ofProject) {
			why := "a block of another project's sessions (cwd " + strings.Join(cwds, ", ") + "): not this project's"
			if len(cwds) == 0 {
				why = "a block that names no session's cwd: not known to be this project's"
			}
			skips = append(skips, Skip{Source: SourceAgentMemories, Line: max(b.line-1, 1), Why: why})
			continue
		}
		file := strings.SplitN(origin, ":", 2)
		for _, it := range markdownItems(body, b.line) {
			// The block's items are listed under its description.
			it.heading = cmp.Or(it.heading, header.Description)
			r := memoryLearning(origin, "", it.text, header.Description)
			r.Origin = itemOrigin(file[0], file[1], it)
			out = append(out, Piece{Source: SourceAgentMemories, Line: it.line, Record: r})
		}
	}
	return out, skips, nil
}

// codexSummaryPieces are the general tips of memory_summary.md.
func codexSummaryPieces(origin, content string) []Piece {
	file := strings.SplitN(origin, ":", 2)
	var out []Piece
	for _, it := range markdownItems(content, 1) {
		if !strings.EqualFold(strings.TrimSpace(it.heading), "General Tips") {
			continue
		}
		r := memoryLearning(origin, "", it.text, "")
		r.Origin = itemOrigin(file[0], file[1], it)
		out = append(out, Piece{Source: SourceAgentMemories, Line: it.line, Record: r})
	}
	return out
}
