package knowledge

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/planq-dev/planq/changelog"
)

// The memories coding agents keep for themselves, outside planq:
//
//   - Claude Code's auto memory of the project,
//     <claude dir>/projects/<key>/memory/: MEMORY.md, an index of one line
//     per memory that links the topic files, and the topic files, each a
//     fact (frontmatter name, description and type: user, feedback,
//     project or reference) or notes under headings. The key is the
//     checkout's absolute path with every character but letters and
//     digits made '-'; the main checkout's names the memory all its
//     worktrees share.
//   - Codex's memories, <codex dir>/memories/: MEMORY.md and
//     memory_summary.md. They are the person's, across projects: read them
//     with --dry-run first.
//
// Each fact, and each bullet or paragraph of notes, becomes a learning of
// domain agent-memory. A memory of type user is about the person, not the
// project: it is left out, and said so.

// ClaudeProjectKey is the name Claude Code gives the folder of a project
// under <claude dir>/projects: the path with every character that is no
// ASCII letter or digit made '-'.
func ClaudeProjectKey(abs string) string {
	var b strings.Builder
	for _, c := range abs {
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' {
			b.WriteRune(c)
		} else {
			b.WriteByte('-')
		}
	}
	return b.String()
}

// claudeProjectDirs are the folders Claude Code keeps for the project:
// those of the checkout and of the main checkout, as given and with links
// resolved, that exist.
func claudeProjectDirs(opts BootstrapOptions) []string {
	if opts.ClaudeDir == "" {
		return nil
	}
	var out []string
	for _, p := range []string{opts.MainCode, opts.Code} {
		if p == "" {
			continue
		}
		abs, err := filepath.Abs(p)
		if err != nil {
			continue
		}
		cands := []string{abs}
		if real, err := filepath.EvalSymlinks(abs); err == nil {
			cands = append(cands, real)
		}
		for _, c := range cands {
			dir := filepath.Join(opts.ClaudeDir, "projects", ClaudeProjectKey(c))
			if info, err := os.Stat(dir); err == nil && info.IsDir() && !slices.Contains(out, dir) {
				out = append(out, dir)
			}
		}
	}
	return out
}

// memorySource reads Claude Code's memory of the project and Codex's
// memories.
func memorySource(opts BootstrapOptions) found {
	var f found
	for _, dir := range claudeProjectDirs(opts) {
		readMemoryDir(&f, filepath.Join(dir, "memory"), "claude-memory", nil)
	}
	if opts.CodexDir != "" {
		readMemoryDir(&f, filepath.Join(opts.CodexDir, "memories"), "codex-memory", []string{"MEMORY.md", "memory_summary.md"})
	}
	return f
}

// readMemoryDir reads the memory files of dir (only those named, when
// names are given), each origin prefixed with prefix.
func readMemoryDir(f *found, dir, prefix string, names []string) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		name := e.Name()
		full := filepath.Join(dir, name)
		if e.IsDir() || strings.HasPrefix(name, ".") || names != nil && !slices.Contains(names, name) {
			continue
		}
		f.read++
		if !strings.HasSuffix(strings.ToLower(name), ".md") {
			f.skipped = append(f.skipped, Skip{Source: SourceAgentMemories, File: full, Why: "not a Markdown file"})
			continue
		}
		data, err := os.ReadFile(full)
		if err != nil {
			f.skipped = append(f.skipped, Skip{Source: SourceAgentMemories, File: full, Why: err.Error()})
			continue
		}
		if why := readableText(data); why != "" {
			f.skipped = append(f.skipped, Skip{Source: SourceAgentMemories, File: full, Why: why})
			continue
		}
		at := time.Time{}
		if info, err := e.Info(); err == nil {
			at = info.ModTime().UTC().Truncate(time.Second)
		}
		siblings := func(link string) bool {
			_, err := os.Stat(filepath.Join(dir, filepath.FromSlash(link)))
			return err == nil
		}
		pieces, skips, err := memoryPieces(prefix+":"+name, name, string(data), siblings)
		if err != nil {
			f.skipped = append(f.skipped, lineSkip(SourceAgentMemories, full, err))
			continue
		}
		for _, s := range skips {
			s.File = full
			f.skipped = append(f.skipped, s)
		}
		for _, p := range pieces {
			p.file = full
			if p.rec.Timestamp.IsZero() {
				p.rec.Timestamp = at
			}
			f.pieces = append(f.pieces, p)
		}
	}
}

var (
	// indexLinkRE is a line of MEMORY.md that points at a topic file.
	indexLinkRE = regexp.MustCompile(`^\s*\[[^\]]*\]\(([^)\s]+\.md)\)`)
	nameWordsRE = regexp.MustCompile(`[-_\s]+`)
)

// memoryTypeSubject is the subject of a fact of a type: the memories of a
// kind gather in one article.
var memoryTypeSubject = map[string]string{
	"feedback":  "Working preferences",
	"project":   "Project context",
	"reference": "References",
}

// memoryPieces are the learnings of one memory file, named (in origins)
// origin, called name; hasFile tells whether a link of an index names a
// file beside it, which is read on its own. A fact of type user is a
// skip of its own; broken frontmatter an error.
func memoryPieces(origin, name, content string, hasFile func(string) bool) ([]piece, []Skip, error) {
	fields, body, first, err := splitFrontmatter(content)
	if err != nil {
		return nil, nil, err
	}
	typ := stringField(fields, "type")
	if meta, ok := fields["metadata"].(map[string]any); ok && typ == "" {
		typ = stringField(meta, "type")
	}
	typ = strings.ToLower(typ)
	learning := func(text, subject string) *changelog.Record {
		t := changelog.TypeConvention
		if typ == "project" || typ == "reference" {
			t = changelog.TypeReference
		}
		tags := []string{"from:" + strings.SplitN(origin, ":", 2)[0]}
		if typ != "" {
			tags = append(tags, "memory:"+typ)
		}
		return &changelog.Record{Kind: changelog.KindLearning, Type: t, Domain: "agent-memory", Classification: changelog.Tactical,
			Subject: subjectOf(subject), Body: text, Tags: tags}
	}
	if typ == "user" {
		return nil, []Skip{{Source: SourceAgentMemories, Line: 1, Why: "a memory about the person, not the project: left out"}}, nil
	}
	description := stringField(fields, "description")
	if fields != nil && (typ != "" || description != "" || stringField(fields, "name") != "") {
		// One fact: its text the body (or the description).
		text := strings.TrimSpace(body)
		if text == "" {
			text = description
		}
		if len(strings.Fields(text)) < 3 {
			return nil, nil, nil
		}
		subject := memoryTypeSubject[typ]
		if subject == "" {
			subject = humanName(stringField(fields, "name"), name)
		}
		r := learning(text, subject)
		r.Origin = capOrigin(origin + "@" + shortHash(text))
		return []piece{{source: SourceAgentMemories, line: first, rec: r}}, nil, nil
	}
	index := strings.EqualFold(name, "MEMORY.md")
	var out []piece
	for _, it := range markdownItems(body, first) {
		if index {
			if m := indexLinkRE.FindStringSubmatch(it.text); m != nil && hasFile != nil && hasFile(m[1]) {
				continue // the topic file is read itself
			}
		}
		subject := it.heading
		if subject == "" && !index {
			subject = humanName("", name)
		}
		r := learning(it.text, subject)
		r.Origin = itemOrigin(strings.SplitN(origin, ":", 2)[0], strings.SplitN(origin, ":", 2)[1], it)
		out = append(out, piece{source: SourceAgentMemories, line: it.line, rec: r})
	}
	return out, nil, nil
}

// humanName is a memory's name in words ("api_conventions" is "api
// conventions"), else its file's name without .md.
func humanName(name, file string) string {
	if name == "" {
		name = strings.TrimSuffix(file, filepath.Ext(file))
	}
	return strings.TrimSpace(nameWordsRE.ReplaceAllString(name, " "))
}
