package mulch

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/planq-dev/planq/changelog"
)

// The fixtures are what the real mulch CLI wrote (scripts/mulch-fixtures.sh).
const fixtures = "testdata/mulch"

// shapes are the shapes of real mulch data (testdata/shapes/README.md).
const shapes = "testdata/shapes"

// TestFixturesImportEveryField reads what mulch wrote and checks the planq
// learning each record becomes, field by field.
func TestFixturesImportEveryField(t *testing.T) {
	entries := read(t, fixtures)
	if len(entries) != 7 {
		t.Fatalf("%d entries, want the 7 the fixture script records", len(entries))
	}
	recs := convert(t, Config{}, "demo", entries)
	byType := map[string][]*changelog.Record{}
	for i, r := range recs {
		stamped := *r
		stamped.Agent = "importer"
		if err := changelog.Validate(&stamped); err != nil {
			t.Errorf("%s:%d: %v", entries[i].File, entries[i].Line, err)
		}
		if r.Origin != "mulch:demo:"+entries[i].Record.ID || r.ID != IDOf(r.Origin) || r.Domain != entries[i].Domain {
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

// read reads the mulch directory dir, which holds no line it refuses.
func read(t testing.TB, dir string) []Entry {
	t.Helper()
	src, err := Read(t.Context(), dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(src.Refused) > 0 {
		t.Fatalf("refused: %v", src.Refused)
	}
	return src.Entries
}

// convert is ToPlanq's learnings of entries, none refused.
func convert(t testing.TB, cfg Config, project string, entries []Entry) []*changelog.Record {
	t.Helper()
	conv, refused := ToPlanq(cfg, project, entries, nil)
	if len(refused) > 0 {
		t.Fatalf("refused: %v", refused)
	}
	out := make([]*changelog.Record, len(conv))
	for i, c := range conv {
		out[i] = c.Record
	}
	return out
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
// So do the shapes of real mulch data (see testdata/shapes/README.md):
// empty fields, custom types and their fields, repeated ids, a record
// that supersedes itself, and a record of mulch's archive.
func TestExportGivesBackWhatMulchWrote(t *testing.T) {
	for _, dir := range []string{fixtures, shapes} {
		src, err := Read(t.Context(), dir)
		if err != nil {
			t.Fatal(err)
		}
		entries := src.Entries
		recs := convert(t, src.Config, "demo", entries)
		idOf := IDMap(recs)
		for i, r := range recs {
			got := FromPlanq(r, idOf)
			want := entries[i].Record
			if !reflect.DeepEqual(got, want) {
				g, _ := json.Marshal(got)
				w, _ := json.Marshal(want)
				t.Errorf("%s:%d round trip:\n got  %s\n want %s", entries[i].File, entries[i].Line, g, w)
			}
			// And as mulch reads it: the same record from the line export writes.
			line, err := json.Marshal(got)
			if err != nil {
				t.Fatal(err)
			}
			again, err := src.Config.DecodeLine(line)
			if err != nil || !reflect.DeepEqual(again, want) {
				t.Errorf("%s:%d: the exported line %s reads back as %+v, %v", entries[i].File, entries[i].Line, line, again, err)
			}
		}
	}
}

// TestBadInputNamesFileAndLine: a broken line, an unknown field, a missing
// field, a bad type or time each refuse their line, naming file, line and
// why, and the lines around them are read; a directory that is not
// mulch's is an error.
func TestBadInputNamesFileAndLine(t *testing.T) {
	for _, c := range []struct{ line, want string }{
		{`{"type":"convention",`, "not a mulch record"},
		{`{"type":"convention","content":"x","classification":"tactical","recorded_at":"2026-01-01T00:00:00Z","colour":"red"}`, `unknown field "colour"`},
		{`{"type":"pattern","name":"x","description":"y","content":"z","classification":"tactical","recorded_at":"2026-01-01T00:00:00Z"}`, `unknown field "content": a pattern has none`},
		{`{"type":"failure","description":"x","classification":"tactical","recorded_at":"2026-01-01T00:00:00Z"}`, "a failure needs resolution"},
		{`{"type":"hunch","content":"x","classification":"tactical","recorded_at":"2026-01-01T00:00:00Z"}`, `type "hunch" is not one of mulch's`},
		{`{"type":"convention","content":"x","classification":"forever","recorded_at":"2026-01-01T00:00:00Z"}`, `classification "forever"`},
		{`{"type":"convention","content":"x","classification":"tactical","recorded_at":"yesterday"}`, `recorded_at "yesterday" is not a time`},
		{`{"type":"convention","content":"x","classification":"tactical","recorded_at":"2026-01-01T00:00:00Z"} {}`, "more than one JSON value"},
		{`[1]`, "not a mulch record"},
		{`null`, "not a JSON object"},
		{`{"content":"x"}`, "it has no type"},
	} {
		dir := t.TempDir()
		if err := os.MkdirAll(filepath.Join(dir, "expertise"), 0o755); err != nil {
			t.Fatal(err)
		}
		good := `{"type":"convention","content":"ok","classification":"tactical","recorded_at":"2026-01-01T00:00:00Z"}`
		if err := os.WriteFile(filepath.Join(dir, "expertise", "auth.jsonl"), []byte(good+"\n"+c.line+"\n"+good+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		src, err := Read(t.Context(), dir)
		if err != nil {
			t.Fatal(err)
		}
		if len(src.Refused) != 1 || src.Refused[0].File != "expertise/auth.jsonl" || src.Refused[0].Line != 2 ||
			!strings.Contains(src.Refused[0].String(), "expertise/auth.jsonl:2: ") || !strings.Contains(src.Refused[0].Reason, c.want) {
			t.Errorf("%s: refused %v, want expertise/auth.jsonl:2 and %q", c.line, src.Refused, c.want)
		}
		if len(src.Entries) != 2 || src.Entries[1].Line != 3 {
			t.Errorf("%s: read %d entries, want the 2 good lines", c.line, len(src.Entries))
		}
	}
	if _, err := Read(t.Context(), t.TempDir()); err == nil || !strings.Contains(err.Error(), "is not a mulch directory") {
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
	cfg, err := ReadConfig(shapes)
	if err != nil {
		f.Fatal(err)
	}
	for _, name := range []string{"agents", "cli", "testing"} {
		data, err := os.ReadFile(filepath.Join(shapes, "expertise", name+".jsonl"))
		if err != nil {
			f.Fatal(err)
		}
		for _, line := range strings.Split(string(data), "\n") {
			f.Add([]byte(line))
		}
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		r, err := cfg.DecodeLine(line)
		if err != nil {
			return
		}
		conv, refused := ToPlanq(cfg, "fuzz", []Entry{{Domain: "auth", File: "auth.jsonl", Line: 1, Record: r, Archived: r.Status == "archived"}}, nil)
		if len(refused) > 0 {
			if refused[0].Line != 1 || refused[0].Reason == "" {
				t.Fatalf("a refusal that names no line or reason: %+v", refused[0])
			}
			return // a record mulch allows that planq cannot hold is refused, naming its line
		}
		if a := conv[0].Archive; a != nil {
			stamped := *a
			stamped.Agent = "importer"
			if err := changelog.Validate(&stamped); err != nil || stamped.Supersedes != conv[0].Record.ID {
				t.Fatalf("%s made an invalid archive record: %v", line, err)
			}
		}
		stamped := *conv[0].Record
		stamped.Agent = "importer"
		if err := changelog.Validate(&stamped); err != nil {
			t.Fatalf("%s made an invalid learning: %v", line, err)
		}
	})
}

// TestRealShapes: each shape real mulch data holds (testdata/shapes)
// becomes a learning, and what planq has no field for stays in it.
func TestRealShapes(t *testing.T) {
	src, err := Read(t.Context(), shapes)
	if err != nil {
		t.Fatal(err)
	}
	if len(src.Refused) > 0 || len(src.Entries) != 12 {
		t.Fatalf("%d entries, refused %v; want all 12 records", len(src.Entries), src.Refused)
	}
	conv, refused := ToPlanq(src.Config, "demo", src.Entries, nil)
	if len(refused) > 0 || len(conv) != 12 {
		t.Fatalf("%d learnings, refused %v; want 12", len(conv), refused)
	}
	at := func(file string, line int) Converted {
		t.Helper()
		for _, c := range conv {
			if c.Entry.File == file && c.Entry.Line == line {
				return c
			}
		}
		t.Fatalf("no learning from %s:%d", file, line)
		return Converted{}
	}
	ids := map[string]string{}
	for _, c := range conv {
		where := fmt.Sprintf("%s:%d", c.Entry.File, c.Entry.Line)
		if other, ok := ids[c.Record.ID]; ok {
			t.Errorf("%s and %s are both %s", other, where, c.Record.ID)
		}
		ids[c.Record.ID] = where
		if c.Record.ID != IDOf(c.Record.Origin) {
			t.Errorf("%s: id %s is not drawn from its origin %s", where, c.Record.ID, c.Record.Origin)
		}
	}

	// What automated recorders write: empty fields.
	fail := at("expertise/agents.jsonl", 1).Record
	if fail.Type != changelog.TypeFailure || fail.Resolution != noResolution || !strings.HasPrefix(fail.Body, "Agent builder-auth exited") {
		t.Errorf("a failure without resolution: %+v", fail)
	}
	noName := at("expertise/agents.jsonl", 2).Record
	if noName.Type != changelog.TypePattern || noName.Subject != "" || !strings.HasPrefix(noName.Title(), "Merge conflict resolved") {
		t.Errorf("a pattern without name: %+v", noName)
	}

	// mulch's id repeats: each record has an origin of its own.
	for _, c := range []struct {
		file   string
		line   int
		origin string
	}{
		{"expertise/agents.jsonl", 2, "mulch:demo:mx-ecd3cf"},
		{"expertise/agents.jsonl", 3, "mulch:demo:mx-ecd3cf#2"},
		{"expertise/cli.jsonl", 2, "mulch:demo:mx-0944bc"},
		{"expertise/cli.jsonl", 3, "mulch:demo:mx-0944bc#2"},
		{"expertise/cli.jsonl", 4, "mulch:demo:mx-0944bc#3"},
	} {
		got := at(c.file, c.line)
		if got.Record.Origin != c.origin {
			t.Errorf("%s:%d: origin %q, want %q", c.file, c.line, got.Record.Origin, c.origin)
		}
		if wantLegacy := !strings.Contains(c.origin, "#"); (got.Legacy == "mulch:"+got.Entry.Record.ID) != wantLegacy {
			t.Errorf("%s:%d: legacy origin %q", c.file, c.line, got.Legacy)
		}
	}

	// Custom types: the nearest planq type, the rest as tags.
	rel := at("expertise/cli.jsonl", 1).Record
	if rel.Type != changelog.TypeDecision || rel.Subject != "Release v2.0 drops the legacy token format" ||
		!strings.Contains(rel.Body, "clients upgrade first") {
		t.Errorf("release_decision: %+v", rel)
	}
	for _, tag := range []string{"mulch:type=release_decision", "mulch:extends=decision", "mulch:field.version=2.0.0", "mulch:field.breaking=true", "author:demo"} {
		if !hasTag(rel, tag) {
			t.Errorf("release_decision lacks tag %q: %v", tag, rel.Tags)
		}
	}
	flake := at("expertise/testing.jsonl", 1).Record
	if flake.Type != changelog.TypeFailure || !strings.HasPrefix(flake.Resolution, "Re-run the file alone") ||
		!hasTag(flake, "mulch:type=flake_symptom") || !hasTag(flake, "mulch:field.test_path=test/lock.test.ts") ||
		!hasTag(flake, "mulch:field.flake_rate=about 1 in 3 full runs") {
		t.Errorf("flake_symptom (written with its legacy field flake_path): %+v", flake)
	}
	inc := at("expertise/cli.jsonl", 6).Record
	if inc.Type != changelog.TypeReference || inc.Subject != "login outage on 2026-03-02" ||
		inc.Body != "login outage on 2026-03-02\n\nsummary: login outage on 2026-03-02\nimpact: logins failed for 40 minutes\nafter the key rotation" ||
		!hasTag(inc, "mulch:type=incident") || hasTag(inc, "mulch:extends=") ||
		!hasTag(inc, `mulch:field.impact="logins failed for 40 minutes\nafter the key rotation"`) {
		t.Errorf("incident, a custom type of its own: %+v", inc)
	}

	// A record that lists itself in supersedes supersedes nothing.
	self := at("expertise/cli.jsonl", 5).Record
	if self.Supersedes != "" || !hasTag(self, "mulch:supersedes=mx-a43b7f") || !hasTag(self, "mulch:supersedes=mx-5e0c11") {
		t.Errorf("self-superseding convention: supersedes %q, tags %v", self.Supersedes, self.Tags)
	}
	if got := changelog.Current([]*changelog.Record{self}); len(got) != 1 {
		t.Error("the self-superseding convention is not current")
	}

	// mulch's legacy singular outcome reads as outcomes.
	if c := at("expertise/testing.jsonl", 2).Record; !hasTag(c, `mulch:outcome={"status":"success","agent":"builder"}`) {
		t.Errorf("legacy outcome: %v", c.Tags)
	}

	// mulch's archive: the learning, and the record that archives it.
	arch := at("archive/cli.jsonl", 2)
	if m := arch.Archive; !arch.Entry.Archived || m == nil || !m.Archived || !m.Tombstone || m.Supersedes != arch.Record.ID ||
		m.Body != "Archived "+arch.Record.ID+": stale" || !m.Timestamp.Equal(time.Date(2026, 2, 1, 0, 0, 0, 0, time.UTC)) {
		t.Errorf("archived: %+v marker %+v", arch.Record, arch.Archive)
	}
	for _, c := range conv {
		if (c.Archive != nil) != (c.Entry.File == "archive/cli.jsonl") {
			t.Errorf("%s:%d: archive record %v", c.Entry.File, c.Entry.Line, c.Archive)
		}
	}
	recs := []*changelog.Record{arch.Record, arch.Archive}
	if got := changelog.Current(recs); len(got) != 0 {
		t.Errorf("an archived learning is current: %v", got)
	}
}

// The same mulch id from two projects makes two learnings.
func TestTwoProjectsTwoLearnings(t *testing.T) {
	entries := read(t, shapes)
	cfg, err := ReadConfig(shapes)
	if err != nil {
		t.Fatal(err)
	}
	a, b := convert(t, cfg, "alpha", entries), convert(t, cfg, "beta", entries)
	for i := range a {
		if a[i].ID == b[i].ID || a[i].Origin != strings.Replace(b[i].Origin, ":beta:", ":alpha:", 1) {
			t.Errorf("%d: %s %s and %s %s", i, a[i].ID, a[i].Origin, b[i].ID, b[i].Origin)
		}
	}
}

// A link names the first record of its id, in its domain when it says one.
func TestLinksResolve(t *testing.T) {
	line := func(id, text, links string) string {
		return `{"id":"` + id + `","type":"convention","content":"` + text + `","classification":"tactical","recorded_at":"2026-01-01T00:00:00.000Z"` + links + `}`
	}
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "expertise"), 0o755); err != nil {
		t.Fatal(err)
	}
	write := func(name string, lines ...string) {
		if err := os.WriteFile(filepath.Join(dir, "expertise", name), []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("a.jsonl", line("mx-aaaa01", "first in a", ""))
	write("b.jsonl", line("mx-aaaa01", "first in b", ""),
		line("mx-bbbb01", "links", `,"supersedes":["b:mx-aaaa01"],"relates_to":["mx-aaaa01","mx-ffff01"]`),
		line("mx-bbbb02", "later link", `,"supersedes":["mx-bbbb02","mx-ffff02","mx-bbbb01"]`))
	entries := read(t, dir)
	recs := convert(t, Config{}, "p", entries)
	if recs[2].Supersedes != recs[1].ID || len(recs[2].DependsOn) != 1 || recs[2].DependsOn[0] != recs[0].ID ||
		!hasTag(recs[2], "mulch:supersedes=b:mx-aaaa01") || !hasTag(recs[2], "mulch:relates_to=mx-ffff01") {
		t.Errorf("qualified link: %+v", recs[2])
	}
	if recs[3].Supersedes != recs[2].ID || !hasTag(recs[3], "mulch:supersedes=mx-bbbb02") {
		t.Errorf("the first link that is not itself: %+v", recs[3])
	}
	idOf := IDMap(recs)
	for i, r := range recs {
		if got := FromPlanq(r, idOf); !reflect.DeepEqual(got, entries[i].Record) {
			t.Errorf("%d: round trip %+v, want %+v", i, got, entries[i].Record)
		}
	}
}
