package prime

import (
	"strings"
	"testing"

	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/readmodel"
)

// A record's line shows what it teaches: a title that only names it (an
// imported pattern's slug, an automated record's first field, a topic of a
// word or two) is followed by what the body says after it.
func TestLineTeaches(t *testing.T) {
	long := "Descriptions run long " + strings.Repeat("and on ", 40) + "to the end."
	for _, tc := range []struct {
		name, body, want string
	}{
		{"a slug and its description", "recipe-default-export-strict\n\nExport is strict by default: an unknown field is refused. Pass --lenient to keep it.",
			"recipe-default-export-strict: Export is strict by default: an unknown field is refused."},
		{"snake case", "retry_once\n\nRetry a 401 once, then give up!  Never twice.", "retry_once: Retry a 401 once, then give up!"},
		{"a topic of two words", "token refresh\n\nRefresh the token on a 401, never before.", "token refresh: Refresh the token on a 401, never before."},
		{"a title that says it", "Run migrations before the tests\n\nThe tests read the schema.", "Run migrations before the tests"},
		{"a slug with nothing after it", "recipe-default-export-strict", "recipe-default-export-strict"},
		{"an abbreviation is no sentence's end", "type-registry\n\nTypes live behind a registry, e.g. the built-in ones. Each is one row.",
			"type-registry: Types live behind a registry, e.g. the built-in ones."},
		{"a path is no sentence's end", "type-registry\n\nTypes live in src/registry/. TypeRegistry.get returns one.", "type-registry: Types live in src/registry/."},
		{"a description wrapped over lines", "file-locking\n\nwithFileLock locks a file\nwith O_EXCL lock files.\nA stale lock is broken.",
			"file-locking: withFileLock locks a file with O_EXCL lock files."},
		{"a title ending in a colon", "Steps:\n\nrun the linter first. Then the tests.", "Steps: run the linter first."},
		{"a field list an automated recorder writes", "Agent: coordinator\nCapability: coordinator\nFailure reason: Process terminated\nDetected by: Tier 0 (process death)",
			"Agent: coordinator; Capability: coordinator; Failure reason: Process terminated; Detected by: Tier 0 (process death)"},
		{"a short title wrapped onto the next line", "Tokens expire\nafter fifteen minutes. Refresh them.", "Tokens expire after fifteen minutes."},
		{"a long description is cut", "long-one\n\n" + long, "long-one: " + changelog.Shorten(long, gistWidth)},
	} {
		r := learning("pq-1", "cli", changelog.TypePattern, tc.body)
		want := "[cli/pattern] " + tc.want + " — learnings/cli/pq-1.md"
		if got := indexLine(r, ""); got != want {
			t.Errorf("%s:\n got %q\nwant %q", tc.name, got, want)
		}
	}
	// The marks and particulars of the one-line form stay.
	r := learning("pq-2", "agents", changelog.TypeFailure, "worker-crash\n\nThe worker dies on a full disk.")
	r.Resolution, r.Status = "free space first", changelog.StatusDisputed
	if got, want := indexLine(r, " (yours)"), "[agents/failure] worker-crash: The worker dies on a full disk. (resolution: free space first) [disputed] (yours) — learnings/agents/pq-2.md"; got != want {
		t.Errorf("failure:\n got %q\nwant %q", got, want)
	}
}

// In prime and in query, an imported pattern reads with its description.
func TestDocumentsShowWhatPatternsTeach(t *testing.T) {
	slug := learning("pq-s1", "cli", changelog.TypePattern, "recipe-default-export-strict\n\nExport is strict by default. More.")
	in := &Input{Summary: summary()}
	in.Summary.Team, in.Summary.TeamTotal = []*changelog.Record{slug}, 1
	in.Relevant = []readmodel.Hit{{ID: "pq-s1", Path: slug.Path, Kind: changelog.KindLearning, Agent: "mulch", Time: t0, Title: "recipe-default-export-strict", From: 1, To: 3}}
	doc := build(t, in, Options{})
	if !strings.Contains(doc.Text, "[cli/pattern] recipe-default-export-strict: Export is strict by default. — learnings/cli/pq-s1.md") {
		t.Errorf("prime shows the slug alone:\n%s", doc.Text)
	}
	out, err := Expertise("demo", []*changelog.Record{slug}, "markdown", readmodel.Staleness{})
	if err != nil || !strings.Contains(out, "recipe-default-export-strict: Export is strict by default.") {
		t.Errorf("query shows the slug alone (%v):\n%s", err, out)
	}
}
