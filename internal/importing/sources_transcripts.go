package importing

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/internal/untrusted"
)

// Session transcripts hold everything an agent and a person said; a
// bootstrap takes only what is clearly meant to be kept:
//
//   - what the person asked the agent to remember: a message of theirs
//     that starts "remember ...", "note: ..." or "for future reference
//     ...", of at most a few lines, and no question;
//   - what Claude Code wrote to its memory folder (a Write of a .md file
//     under a memory/ directory), read as the memory file it wrote.
//
// Claude Code's transcripts of the project are
// <claude dir>/projects/<key>/*.jsonl, one JSON object a line ("type":
// "user" or "assistant", "message": {"role", "content"}); Codex's are
// <codex dir>/sessions/**/*.jsonl ("type": "session_meta" with the
// session's cwd, "event_msg" with a "user_message", "response_item" with a
// message), of which only the sessions whose cwd is the checkout (or under
// it) are read. A line longer than maxTranscriptLine, or that is no JSON
// (a file cut short, say), is skipped and reported with its file and
// line.

// maxTranscriptLine is the longest line of a transcript a bootstrap reads.
const maxTranscriptLine = 1 << 20

// maxTranscript is the largest transcript a bootstrap reads: a long
// session's is tens of MiB; a file past this is no transcript.
const maxTranscript = 1 << 30

// maxRemember is the longest message taken as something to remember.
const maxRemember = 1000

var rememberRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?is)^(?:please\s+)?(?:remember\s+that\b|remember\s*[:,]|remember\s+to\b|note\s*:|for future reference\s*[:,]?)\s*`)
})

// rememberText is what the person's message asks to keep, without the
// asking ("remember that deploys are on Tuesdays" keeps "Deploys are on
// Tuesdays"), else "". "remember to ..." stays as it is: an instruction.
func rememberText(text string) string {
	t := strings.TrimSpace(text)
	if len(t) > maxRemember || !rememberRE().MatchString(t) || strings.HasSuffix(t, "?") || strings.Count(t, "\n") > 5 {
		return ""
	}
	kept := strings.TrimSpace(rememberRE().ReplaceAllString(t, ""))
	if m := rememberRE().FindString(t); strings.HasSuffix(strings.ToLower(strings.TrimSpace(m)), " to") {
		kept = t // "remember to ...": an instruction, kept whole
	}
	if len(strings.Fields(kept)) < 3 {
		return ""
	}
	return capitalize(kept)
}

// transcriptSource reads the transcripts of Claude Code and Codex.
func transcriptSource(ctx context.Context, opts Where) (Found, error) {
	var f Found
	for _, dir := range claudeProjectDirs(opts) {
		files, _ := filepath.Glob(filepath.Join(dir, "*.jsonl"))
		for _, file := range files {
			if err := ctx.Err(); err != nil {
				return f, err
			}
			f.Read++
			if err := readTranscript(ctx, &f, dir, file, "transcript:claude/"+filepath.Base(file), claudeLine, nil); err != nil {
				return f, err
			}
		}
	}
	if opts.CodexDir == "" {
		return f, nil
	}
	root := filepath.Join(opts.CodexDir, "sessions")
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil // a folder planq cannot read holds no session of the project's
		}
		if ctxErr := ctx.Err(); ctxErr != nil {
			return ctxErr
		}
		if d.IsDir() || !strings.HasSuffix(p, ".jsonl") {
			return nil
		}
		rel, _ := filepath.Rel(root, p)
		return readTranscript(ctx, &f, root, p, "transcript:codex/"+filepath.ToSlash(rel), codexLine, func(cwd string) bool { return ofProject(cwd, opts) })
	})
	return f, err
}

// ofProject tells whether a session's cwd is the checkout, or under it.
func ofProject(cwd string, opts Where) bool {
	if cwd == "" {
		return false
	}
	for _, p := range []string{opts.Code, opts.MainCode} {
		if p == "" {
			continue
		}
		cands := []string{p}
		if real, err := filepath.EvalSymlinks(p); err == nil {
			cands = append(cands, real)
		}
		for _, c := range cands {
			c = filepath.Clean(c)
			if cwd == c || strings.HasPrefix(cwd, c+string(filepath.Separator)) {
				return true
			}
		}
	}
	return false
}

// lineReader reads what one line of a transcript says: the pieces it
// makes, and for a session's first line the cwd it ran in (Codex).
type lineReader func(line []byte, origin string, n int) (pieces []Piece, cwd string, err error)

// readTranscript reads the transcript at file, found in dir, naming each
// piece origin:<line>. With ofProject, the file is read only when a line
// names the session's cwd and ofProject says yes, else it counts for
// nothing. A file that is no regular file inside dir (a link to /dev/zero
// never ends) is skipped; only ctx's end stops the reading with an error.
func readTranscript(ctx context.Context, f *Found, dir, file, origin string, read lineReader, ofProject func(string) bool) error {
	fh, err := untrusted.Open(dir, file, maxTranscript)
	if err != nil {
		f.Skipped = append(f.Skipped, Skip{Source: SourceTranscripts, File: file, Why: untrusted.Why(err)})
		return nil
	}
	defer func() { _ = fh.Close() }()
	t := &transcript{f: f, file: file, origin: origin, read: read, ofProject: ofProject, decided: ofProject == nil,
		at: fh.Stat().ModTime().UTC().Truncate(time.Second)}
	// Every read of the file asks ctx first: a transcript of a GiB, or
	// one line as long, stops within a read of 64 KiB of Ctrl-C.
	br := bufio.NewReaderSize(untrusted.Until(ctx, fh), 64<<10)
	for n := 1; ; n++ {
		line, long, last, err := nextLine(br)
		if ctxErr := ctx.Err(); ctxErr != nil {
			return ctxErr
		}
		if err != nil && !errors.Is(err, io.EOF) {
			t.skip(n, untrusted.Why(err))
			break
		}
		if !t.take(line, n, long, last) {
			return nil // another project's session
		}
		if last || errors.Is(err, io.EOF) {
			break
		}
	}
	if !t.decided {
		return nil
	}
	f.Pieces = append(f.Pieces, t.pieces...)
	f.Skipped = append(f.Skipped, t.skipped...)
	return nil
}

type transcript struct {
	f            *Found
	file, origin string
	read         lineReader
	ofProject    func(string) bool
	at           time.Time
	pieces       []Piece
	skipped      []Skip
	decided      bool
}

func (t *transcript) skip(n int, why string) {
	t.skipped = append(t.skipped, Skip{Source: SourceTranscripts, File: t.file, Line: n, Why: why})
}

// take is false when line n says the session is another project's.
func (t *transcript) take(line []byte, n int, long, last bool) bool {
	switch {
	case long:
		t.skip(n, fmt.Sprintf("longer than %d KiB: not read", maxTranscriptLine>>10))
	case len(bytes.TrimSpace(line)) == 0:
	case !json.Valid(line):
		why := "not JSON"
		if last {
			why = "not JSON (the file ends in the middle of a line)"
		}
		t.skip(n, why)
	default:
		ps, cwd, err := t.read(line, t.origin, n)
		if err != nil {
			t.skip(n, err.Error())
		}
		if cwd != "" && !t.decided {
			if !t.ofProject(cwd) {
				return false
			}
			t.decided = true
			t.f.Read++
		}
		for _, p := range ps {
			p.File, p.Line = t.file, n
			if p.Record.Timestamp.IsZero() {
				p.Record.Timestamp = t.at
			}
			t.pieces = append(t.pieces, p)
		}
	}
	return true
}

// nextLine reads one line without its newline: long when it was longer
// than maxTranscriptLine (then its text is dropped), last when the file
// ends without a newline after it.
func nextLine(br *bufio.Reader) (line []byte, long, last bool, err error) {
	var buf []byte
	for {
		chunk, err := br.ReadSlice('\n')
		if !long {
			if len(buf)+len(chunk) > maxTranscriptLine+1 {
				long, buf = true, nil
			} else {
				buf = append(buf, chunk...)
			}
		}
		switch {
		case err == nil:
			return bytes.TrimRight(buf, "\r\n"), long, false, nil
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case errors.Is(err, io.EOF):
			return buf, long, len(buf) > 0 || long, io.EOF
		default:
			return nil, long, true, err
		}
	}
}

// claudeLine reads a line of Claude Code's transcript.
func claudeLine(line []byte, origin string, n int) ([]Piece, string, error) {
	var l struct {
		Type      string `json:"type"`
		IsMeta    bool   `json:"isMeta"`
		Timestamp string `json:"timestamp"`
		Message   struct {
			Role    string          `json:"role"`
			Content json.RawMessage `json:"content"`
		} `json:"message"`
	}
	if err := json.Unmarshal(line, &l); err != nil {
		return nil, "", nil // JSON of another shape: nothing to take
	}
	at := transcriptTime(l.Timestamp)
	here := fmt.Sprintf("%s:%d", origin, n)
	var blocks []claudeBlock
	var text string
	if err := json.Unmarshal(l.Message.Content, &text); err != nil {
		_ = json.Unmarshal(l.Message.Content, &blocks)
	}
	switch {
	case l.Type == "user" && !l.IsMeta:
		if text == "" {
			text = blocksText(blocks)
		}
		if t := rememberText(text); t != "" {
			return []Piece{rememberPiece(t, here, at)}, "", nil
		}
	case l.Type == "assistant":
		return memoryWrites(blocks, here, at)
	}
	return nil, "", nil
}

type claudeBlock struct {
	Type  string `json:"type"`
	Text  string `json:"text"`
	Name  string `json:"name"`
	Input struct {
		FilePath string `json:"file_path"`
		Content  string `json:"content"`
	} `json:"input"`
}

func blocksText(blocks []claudeBlock) string {
	var text string
	for _, b := range blocks {
		if b.Type == "text" {
			text += b.Text
		}
	}
	return text
}

func memoryWrites(blocks []claudeBlock, here string, at time.Time) ([]Piece, string, error) {
	var out []Piece
	for _, b := range blocks {
		if b.Type != "tool_use" || b.Name != "Write" || !memoryPath(b.Input.FilePath) {
			continue
		}
		ps, _, err := memoryPieces(here, filepath.Base(b.Input.FilePath), b.Input.Content, nil)
		if err != nil {
			return out, "", fmt.Errorf("a memory written to %s: %w", filepath.Base(b.Input.FilePath), err)
		}
		for _, p := range ps {
			p.Source = SourceTranscripts
			p.Record.Timestamp = at
			out = append(out, p)
		}
	}
	return out, "", nil
}

// memoryPath tells whether a file an agent wrote is one of its memories:
// a Markdown file in a memory/ folder.
func memoryPath(p string) bool {
	p = filepath.ToSlash(p)
	return strings.HasSuffix(strings.ToLower(p), ".md") && strings.Contains(p, "/memory/")
}

// codexLine reads a line of a Codex session.
func codexLine(line []byte, origin string, n int) ([]Piece, string, error) {
	var l struct {
		Type      string `json:"type"`
		Timestamp string `json:"timestamp"`
		Payload   struct {
			Type    string `json:"type"`
			Cwd     string `json:"cwd"`
			Role    string `json:"role"`
			Message string `json:"message"`
			Content []struct {
				Type string `json:"type"`
				Text string `json:"text"`
			} `json:"content"`
		} `json:"payload"`
	}
	if err := json.Unmarshal(line, &l); err != nil {
		return nil, "", nil
	}
	at := transcriptTime(l.Timestamp)
	here := fmt.Sprintf("%s:%d", origin, n)
	var text string
	switch {
	case l.Type == "session_meta":
		return nil, l.Payload.Cwd, nil
	case l.Type == "event_msg" && l.Payload.Type == "user_message":
		text = l.Payload.Message
	case l.Type == "response_item" && l.Payload.Type == "message" && l.Payload.Role == "user":
		for _, c := range l.Payload.Content {
			if c.Type == "input_text" || c.Type == "text" {
				text += c.Text
			}
		}
	}
	if t := rememberText(text); t != "" {
		return []Piece{rememberPiece(t, here, at)}, "", nil
	}
	return nil, "", nil
}

func rememberPiece(text, origin string, at time.Time) Piece {
	r := &changelog.Record{Kind: changelog.KindLearning, Type: changelog.TypeConvention, Domain: "agent-memory",
		Classification: changelog.Tactical, Body: text, Origin: capOrigin(origin), Timestamp: at, Tags: []string{"from:transcript"}}
	return Piece{Source: SourceTranscripts, Record: r}
}

func transcriptTime(s string) time.Time {
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return time.Time{}
	}
	return t.UTC().Truncate(time.Second)
}
