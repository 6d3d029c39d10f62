package mulch

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/planq-dev/planq/changelog"
)

// The fixtures are what the real mulch CLI wrote (scripts/mulch-fixtures.sh).
const fixtures = "testdata/mulch"

// TestFixturesImportEveryField reads what mulch wrote and checks the planq
// learning each record becomes, field by field.
func TestFixturesImportEveryField(t *testing.T) {
	entries, err := Read(fixtures)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 7 {
		t.Fatalf("%d entries, want the 7 the fixture script records", len(entries))
	}
	recs, err := ToPlanq(entries)
	if err != nil {
		t.Fatal(err)
	}
	byType := map[string][]*changelog.Record{}
	for i, r := range recs {
		stamped := *r
		stamped.Agent = "importer"
		if err := changelog.Validate(&stamped); err != nil {
			t.Errorf("%s:%d: %v", entries[i].File, entries[i].Line, err)
		}
		if r.Origin != "mulch:"+entries[i].Record.ID || r.ID != IDOf(r.Origin) || r.Domain != entries[i].Domain {
			t.Errorf("record %d: origin %q id %q domain %q", i, r.Origin, r.ID, r.Domain)
		}
		if got := r.Timestamp.UTC().Format("2006-01-02T15:04:05.000Z"); got != entries[i].Record.RecordedAt {
			t.Errorf("record %d: time %s, mulch says %s", i, got, entries[i].Record.RecordedAt)
		}
		byType[string(r.Type)] = append(byType[string(r.Type)], r)
	}
	conv := byType["convention"][0]
	if conv.Classification != changelog.Foundational || !reflect.DeepEqual(conv.Tags, []string{"security", "jwt"}) ||
		conv.Evidence == nil || conv.Evidence.Commit == "" || len(conv.Anchors) != 1 || conv.Anchors[0].Path != "internal/auth/jwt.go" ||
		!strings.HasPrefix(conv.Body, "Tokens are verified") {
		t.Errorf("convention: %+v", conv)
	}
	pat := byType["pattern"][0]
	if pat.Subject != "token refresh" || pat.Title() != "token refresh" || pat.Evidence.Issue != "#12" || len(pat.DependsOn) != 1 ||
		pat.DependsOn[0] != conv.ID || !hasTag(pat, `mulch:outcome={"status":"success","duration":1200,"test_results":"12 passed","agent":"claude"}`) {
		t.Errorf("pattern: %+v", pat)
	}
	dec := byType["decision"][0]
	if dec.Subject != "Sign tokens with RS256" || !strings.Contains(dec.Body, "Public keys can be published") ||
		!hasTag(dec, "mulch:evidence.gh=planq/demo#4") || !hasTag(dec, "mulch:evidence.linear=ENG-7") {
		t.Errorf("decision: %+v", dec)
	}
	ref := byType["reference"][0]
	if ref.Classification != changelog.Observational || !hasTag(ref, "mulch:dir_anchor=internal/auth") || len(ref.Anchors) != 1 {
		t.Errorf("reference: %+v", ref)
	}
	fails := byType["failure"]
	if len(fails) != 2 || fails[1].Supersedes != fails[0].ID || fails[0].Resolution == "" || !hasTag(fails[0], "mulch:evidence.bead=bd-42") ||
		!hasTag(fails[0], "mulch:evidence.seeds=sd-7") || fails[0].Domain != "ci" {
		t.Errorf("failures: %+v %+v", fails[0], fails[1])
	}
	if g := byType["guide"][0]; g.Subject != "release checklist" || g.Classification != changelog.Tactical {
		t.Errorf("guide: %+v", g)
	}
	if got := changelog.Current(recs); len(got) != 6 {
		t.Errorf("%d current, want 6: the superseded failure is not", len(got))
	}
}

func hasTag(r *changelog.Record, tag string) bool {
	for _, t := range r.Tags {
		if t == tag {
			return true
		}
	}
	return false
}

// TestExportGivesBackWhatMulchWrote: every fixture record, imported and
// exported, is the record mulch wrote, field for field.
func TestExportGivesBackWhatMulchWrote(t *testing.T) {
	entries, err := Read(fixtures)
	if err != nil {
		t.Fatal(err)
	}
	recs, err := ToPlanq(entries)
	if err != nil {
		t.Fatal(err)
	}
	idOf := IDMap(recs)
	for i, r := range recs {
		got := FromPlanq(r, idOf)
		want := entries[i].Record
		if !reflect.DeepEqual(got, want) {
			g, _ := json.Marshal(got)
			w, _ := json.Marshal(want)
			t.Errorf("%s:%d round trip:\n got  %s\n want %s", entries[i].File, entries[i].Line, g, w)
		}
	}
}

// TestBadInputNamesFileAndLine: a broken line, an unknown field, a missing
// field, a bad type or time, and a directory that is not mulch's.
func TestBadInputNamesFileAndLine(t *testing.T) {
	for _, c := range []struct{ line, want string }{
		{`{"type":"convention",`, "auth.jsonl:2: not a mulch record"},
		{`{"type":"convention","content":"x","classification":"tactical","recorded_at":"2026-01-01T00:00:00Z","colour":"red"}`, `unknown field "colour"`},
		{`{"type":"failure","description":"x","classification":"tactical","recorded_at":"2026-01-01T00:00:00Z"}`, "a failure needs resolution"},
		{`{"type":"hunch","content":"x","classification":"tactical","recorded_at":"2026-01-01T00:00:00Z"}`, `type "hunch" is not one of mulch's`},
		{`{"type":"convention","content":"x","classification":"forever","recorded_at":"2026-01-01T00:00:00Z"}`, `classification "forever"`},
		{`{"type":"convention","content":"x","classification":"tactical","recorded_at":"yesterday"}`, `recorded_at "yesterday" is not a time`},
		{`{"type":"convention","content":"x","classification":"tactical","recorded_at":"2026-01-01T00:00:00Z"} {}`, "more than one JSON value"},
	} {
		dir := t.TempDir()
		if err := os.MkdirAll(filepath.Join(dir, "expertise"), 0o755); err != nil {
			t.Fatal(err)
		}
		good := `{"type":"convention","content":"ok","classification":"tactical","recorded_at":"2026-01-01T00:00:00Z"}`
		if err := os.WriteFile(filepath.Join(dir, "expertise", "auth.jsonl"), []byte(good+"\n"+c.line+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := Read(dir)
		if err == nil || !strings.Contains(err.Error(), "auth.jsonl:2") || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want file:line and %q", c.line, err, c.want)
		}
	}
	if _, err := Read(t.TempDir()); err == nil || !strings.Contains(err.Error(), "is not a mulch directory") {
		t.Errorf("an empty directory: %v", err)
	}
}

// FuzzDecodeLine: a line either decodes to a record its type allows, which
// maps to a valid planq learning, or is an error; it never panics.
func FuzzDecodeLine(f *testing.F) {
	data, err := os.ReadFile(filepath.Join(fixtures, "expertise", "auth.jsonl"))
	if err != nil {
		f.Fatal(err)
	}
	for _, line := range strings.Split(string(data), "\n") {
		f.Add([]byte(line))
	}
	f.Add([]byte(`{"type":"guide","name":"x","description":"y","classification":"tactical","recorded_at":"2026-01-01T00:00:00Z","tags":[""]}`))
	f.Fuzz(func(t *testing.T, line []byte) {
		r, err := DecodeLine(line)
		if err != nil {
			return
		}
		recs, err := ToPlanq([]Entry{{Domain: "auth", File: "auth.jsonl", Line: 1, Record: r}})
		if err != nil {
			return // a record mulch allows that planq cannot hold is an error naming its line
		}
		stamped := *recs[0]
		stamped.Agent = "importer"
		if err := changelog.Validate(&stamped); err != nil {
			t.Fatalf("%s made an invalid learning: %v", line, err)
		}
	})
}
