package importing

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/staterepo"
)

// storable fails t when a record a reader made is one the writer of global
// would refuse for its shape (not for its words: a credential is refused
// and reported, never a crash).
func storable(t *testing.T, r *changelog.Record) {
	t.Helper()
	c := *r
	c.Agent, c.ID = "global", testID(r.Origin)
	if c.Timestamp.IsZero() {
		c.Timestamp = time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	}
	if err := changelog.Validate(&c); err != nil {
		t.Fatalf("a record planq cannot store: %v\n%+v", err, c)
	}
	if !utf8.ValidString(c.Origin) || !utf8.ValidString(c.Subject) || len(c.Origin) > 200 {
		t.Fatalf("origin %q, subject %q", c.Origin, c.Subject)
	}
}

func FuzzADR(f *testing.F) {
	for _, name := range []string{"nygard.md", "madr.md"} {
		data, err := os.ReadFile(filepath.Join("testdata", "bootstrap", name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(string(data))
	}
	f.Add("---\nstatus: [\n---\n# X\n")
	f.Add("# \n## Decision Outcome\nChosen option: \"\", because \n")
	f.Add("* Status: superseded by [a](../../x.md)\n# T\n")
	f.Fuzz(func(t *testing.T, doc string) {
		p, err := adrPiece("docs/adr/0001-x.md", doc)
		if err != nil {
			return
		}
		if p.Record.Origin != "adr:docs/adr/0001-x.md" {
			t.Fatalf("origin %q", p.Record.Origin)
		}
		storable(t, p.Record)
	})
}

func FuzzMemoryMarkdown(f *testing.F) {
	f.Add("MEMORY.md", "# Memory\n\n- [T](t.md) - x\n\n## Build\n\n- The build needs Go.\n")
	f.Add("t.md", "---\nname: t\ndescription: d\nmetadata:\n  type: feedback\n---\nTests hit a real database.\n")
	f.Add("t.md", "---\ntype: user\n---\nx y z\n")
	f.Add("t.md", "```\nunclosed fence\n- a b c\n")
	f.Add("t.md", "<!-- open\n# H\n- one two three\n")
	f.Fuzz(func(t *testing.T, name, doc string) {
		ps, _, err := memoryPieces("claude-memory:"+name, name, doc, func(string) bool { return true })
		if err != nil {
			return
		}
		for _, p := range ps {
			if !strings.HasPrefix(p.Record.Origin, "claude-memory:") || p.Line < 1 {
				t.Fatalf("origin %q at line %d", p.Record.Origin, p.Line)
			}
			storable(t, p.Record)
		}
		if _, err := instructionPieces("AGENTS.md", doc); err == nil {
			ps, _ := instructionPieces("AGENTS.md", doc)
			for _, p := range ps {
				storable(t, p.Record)
			}
		}
	})
}

func FuzzTranscriptLine(f *testing.F) {
	f.Add([]byte(`{"type":"user","message":{"role":"user","content":"remember that deploys happen on Tuesdays"}}`))
	f.Add([]byte(`{"type":"user","message":{"content":[{"type":"text","text":"note: the API is versioned"}]}}`))
	f.Add([]byte(`{"type":"assistant","message":{"content":[{"type":"tool_use","name":"Write","input":{"file_path":"/m/memory/a.md","content":"- one two three"}}]}}`))
	f.Add([]byte(`{"type":"event_msg","payload":{"type":"user_message","message":"for future reference, builds are slow"}}`))
	f.Add([]byte(`{"type":"session_meta","payload":{"cwd":"/x"}}`))
	f.Add([]byte(`{"type":"user","message":{"content":7}}`))
	f.Fuzz(func(t *testing.T, line []byte) {
		for _, read := range []lineReader{claudeLine, codexLine} {
			ps, _, _ := read(line, "transcript:claude/s.jsonl", 3)
			for _, p := range ps {
				if !strings.HasPrefix(p.Record.Origin, "transcript:claude/s.jsonl:3") {
					t.Fatalf("origin %q", p.Record.Origin)
				}
				storable(t, p.Record)
			}
		}
	})
}

func FuzzCommitMessage(f *testing.F) {
	f.Add("feat(auth): x\n\nDecision: use RS256\nBecause: keys can be shared.\nAlternatives: HS256, none")
	f.Add("Revert \"feat(cache): redis\"\n\nThis reverts commit 0123456789abcdef.\n\nStale.")
	f.Add("x\n\nWe chose A over B because C.")
	f.Add("revert: y\n\ndecided:\nwhy:")
	f.Fuzz(func(t *testing.T, msg string) {
		for _, p := range commitPieces(staterepo.LoggedCommit{Hash: strings.Repeat("a", 40), Time: time.Unix(1, 0).UTC(), Message: msg}) {
			storable(t, p.Record)
		}
	})
}
