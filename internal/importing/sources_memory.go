package importing

import (
	"cmp"
	"context"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf16"

	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/internal/untrusted"
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
// ASCII letter or digit made '-'. A name over maxClaudeKey characters is
// cut there, and Claude Code appends '-' and a hash of the path: the
// hash its JavaScript build computes (claudeKeyHash) is given; other
// builds hash otherwise, which claudeProjectDirs allows for.
func ClaudeProjectKey(abs string) string {
	key := claudeKeyPrefix(abs)
	if len(key) <= maxClaudeKey {
		return key
	}
	return key[:maxClaudeKey] + "-" + claudeKeyHash(abs)
}

// maxClaudeKey is the longest folder name Claude Code gives a project
// before it cuts the name and appends a hash.
const maxClaudeKey = 200

func claudeKeyPrefix(abs string) string {
	var b strings.Builder
	for _, c := range abs {
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' {
			b.WriteRune(c)
		} else {
			// One '-' per UTF-16 code unit, as JavaScript's replace counts.
			b.WriteString(strings.Repeat("-", len(utf16.Encode([]rune{c}))))
		}
	}
	return b.String()
}

// claudeKeyHash is the hash Claude Code's JavaScript build appends to a
// long key: h = h*31 + c over the path's UTF-16 code units in 32-bit
// arithmetic, its absolute value in base 36.
func claudeKeyHash(abs string) string {
	var h int32
	for _, u := range utf16.Encode([]rune(abs)) {
		h = h<<5 - h + int32(u)
	}
	n := int64(h)
	if n < 0 {
		n = -n
	}
	return strconv.FormatInt(n, 36)
}

// claudeKeyDir is the folder Claude Code keeps for the checkout abs under
// projects, if it exists: the one ClaudeProjectKey names, else, for a
// long path, the only folder whose name is the cut key and a hash (a
// build that hashes otherwise). Two such folders are two projects that
// share the cut key: neither is taken.
func claudeKeyDir(projects, abs string) (string, bool) {
	dir := filepath.Join(projects, ClaudeProjectKey(abs))
	if info, err := os.Stat(dir); err == nil && info.IsDir() {
		return dir, true
	}
	key := claudeKeyPrefix(abs)
	if len(key) <= maxClaudeKey {
		return "", false
	}
	entries, err := os.ReadDir(projects)
	if err != nil {
		return "", false
	}
	var found []string
	for _, e := range entries {
		hash, ok := strings.CutPrefix(e.Name(), key[:maxClaudeKey]+"-")
		if ok && e.IsDir() && hash != "" && strings.Trim(strings.ToLower(hash), "0123456789abcdefghijklmnopqrstuvwxyz") == "" {
			found = append(found, filepath.Join(projects, e.Name()))
		}
	}
	if len(found) != 1 {
		return "", false
	}
	return found[0], true
}

// claudeProjectDirs are the folders Claude Code keeps for the project:
// those of the checkout and of the main checkout, as given and with links
// resolved, that exist.
func claudeProjectDirs(opts Where) []string {
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
			if dir, ok := claudeKeyDir(filepath.Join(opts.ClaudeDir, "projects"), c); ok && !slices.Contains(out, dir) {
				out = append(out, dir)
			}
		}
	}
	return out
}

// memorySource reads Claude Code's memory of the project and Codex's
// memories.
func memorySource(ctx context.Context, opts Where) (Found, error) {
	var f Found
	for _, dir := range claudeProjectDirs(opts) {
		if err := readMemoryDir(ctx, &f, filepath.Join(dir, "memory"), "claude-memory", nil, memoryPieces); err != nil {
			return f, err
		}
	}
	if opts.CodexDir != "" {
		codex := codexPieces(func(cwd string) bool { return ofProject(cwd, opts) })
		if err := readMemoryDir(ctx, &f, filepath.Join(opts.CodexDir, "memories"), "codex-memory", []string{"MEMORY.md", "memory_summary.md"}, codex); err != nil {
			return f, err
		}
	}
	return f, nil
}

// piecesOf reads one memory file: its origin, its name and text, and
// whether a link names a file beside it.
type piecesOf func(origin, name, content string, hasFile func(string) bool) ([]Piece, []Skip, error)

// readMemoryDir reads the memory files of dir (only those named, when
// names are given) with read, each origin prefixed with prefix.
func readMemoryDir(ctx context.Context, f *Found, dir, prefix string, names []string, read piecesOf) error {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil // no memory there
	}
	for _, e := range entries {
		if err := ctx.Err(); err != nil {
			return err
		}
		name := e.Name()
		full := filepath.Join(dir, name)
		if e.IsDir() || strings.HasPrefix(name, ".") || names != nil && !slices.Contains(names, name) {
			continue
		}
		f.Read++
		if !strings.HasSuffix(strings.ToLower(name), ".md") {
			f.Skipped = append(f.Skipped, Skip{Source: SourceAgentMemories, File: full, Why: "not a Markdown file"})
			continue
		}
		// Only a regular file inside the folder: a memory linked to
		// /etc/passwd would land on global, and a FIFO would block.
		data, at, err := readUntrusted(dir, full)
		if err != nil {
			f.Skipped = append(f.Skipped, Skip{Source: SourceAgentMemories, File: full, Why: untrusted.Why(err)})
			continue
		}
		if why := readableText(data); why != "" {
			f.Skipped = append(f.Skipped, Skip{Source: SourceAgentMemories, File: full, Why: why})
			continue
		}
		siblings := func(link string) bool {
			_, err := os.Stat(filepath.Join(dir, filepath.FromSlash(link)))
			return err == nil
		}
		pieces, skips, err := read(prefix+":"+name, name, string(data), siblings)
		if err != nil {
			f.Skipped = append(f.Skipped, lineSkip(SourceAgentMemories, full, err))
			continue
		}
		for _, s := range skips {
			s.File = full
			f.Skipped = append(f.Skipped, s)
		}
		for _, p := range pieces {
			p.File = full
			if p.Record.Timestamp.IsZero() {
				p.Record.Timestamp = at
			}
			f.Pieces = append(f.Pieces, p)
		}
	}
	return nil
}

var (
	// Compiled on first use, as the other sources' patterns.
	// indexLinkRE is a line of MEMORY.md that points at a topic file.
	indexLinkRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\s*\[[^\]]*\]\(([^)\s]+\.md)\)`) })
	nameWordsRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`[-_\s]+`) })
)

// memoryPieces are the learnings of one memory file, named (in origins)
// origin, called name; hasFile tells whether a link of an index names a
// file beside it, which is read on its own. A fact of type user is a
// skip of its own; broken frontmatter an error.
func memoryPieces(origin, name, content string, hasFile func(string) bool) ([]Piece, []Skip, error) {
	fields, body, first, err := splitFrontmatter(content)
	if err != nil {
		return nil, nil, err
	}
	typ := stringField(fields, "type")
	if meta, ok := fields["metadata"].(map[string]any); ok && typ == "" {
		typ = stringField(meta, "type")
	}
	typ = strings.ToLower(typ)
	if typ == "user" {
		return nil, []Skip{{Source: SourceAgentMemories, Line: 1, Why: "a memory about the person, not the project: left out"}}, nil
	}
	if fields != nil && (typ != "" || stringField(fields, "description") != "" || stringField(fields, "name") != "") {
		return memoryFact(origin, name, typ, fields, body, first), nil, nil
	}
	index := strings.EqualFold(name, "MEMORY.md")
	var out []Piece
	for _, it := range markdownItems(body, first) {
		if index {
			if m := indexLinkRE().FindStringSubmatch(it.text); m != nil && hasFile != nil && hasFile(m[1]) {
				continue // the topic file is read itself
			}
		}
		subject := it.heading
		if namesFile(subject, name) {
			subject = "" // "# Memory" atop MEMORY.md says what the file is, not what this item is about
		}
		r := memoryLearning(origin, typ, it.text, subject)
		r.Origin = itemOrigin(strings.SplitN(origin, ":", 2)[0], strings.SplitN(origin, ":", 2)[1], it)
		out = append(out, Piece{Source: SourceAgentMemories, Line: it.line, Record: r})
	}
	return out, nil, nil
}

// memoryFact is the one fact of a memory file with frontmatter.
func memoryFact(origin, name, typ string, fields map[string]any, body string, first int) []Piece {
	text := cmp.Or(strings.TrimSpace(body), stringField(fields, "description"))
	if len(strings.Fields(text)) < 3 {
		return nil
	}
	// What the memory is about names it: its name or title, else its
	// first heading. Never its type: every memory of type project would
	// share one subject, and unrelated ones would dispute each other.
	subject := cmp.Or(humanName(stringField(fields, "name")), humanName(stringField(fields, "title")), firstHeading(body, name))
	r := memoryLearning(origin, typ, text, subject)
	r.Origin = capOrigin(origin + "@" + shortHash(text))
	return []Piece{{Source: SourceAgentMemories, Line: first, Record: r}}
}

func memoryLearning(origin, typ, text, subject string) *changelog.Record {
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

// humanName is a memory's name in words ("api_conventions" is "api
// conventions").
func humanName(name string) string {
	return strings.TrimSpace(nameWordsRE().ReplaceAllString(name, " "))
}

// firstHeading is the first heading of body that does not merely name the
// file, "" for none.
func firstHeading(body, file string) string {
	for _, line := range strings.Split(body, "\n") {
		if m := headingRE().FindStringSubmatch(strings.TrimRight(line, "\r")); m != nil {
			if h := cleanHeading(m[2]); !namesFile(h, file) {
				return h
			}
		}
	}
	return ""
}

// namesFile tells whether heading only names the file it is in ("Memory"
// in MEMORY.md, "Memory summary" in memory_summary.md): a file's name is
// no subject, for what every such file holds would share it.
func namesFile(heading, file string) bool {
	h := strings.ToLower(humanName(heading))
	f := strings.ToLower(humanName(strings.TrimSuffix(file, filepath.Ext(file))))
	return h != "" && (h == f || h == f+"s" || h+"s" == f)
}

// readUntrusted reads the Markdown file full, found in dir, as untrusted
// lets it: its content and when it was last changed.
func readUntrusted(dir, full string) ([]byte, time.Time, error) {
	fh, err := untrusted.Open(dir, full, maxMarkdownFile)
	if err != nil {
		return nil, time.Time{}, err
	}
	defer func() { _ = fh.Close() }()
	data, err := io.ReadAll(fh)
	if err != nil {
		return nil, time.Time{}, err
	}
	return data, fh.Stat().ModTime().UTC().Truncate(time.Second), nil
}
