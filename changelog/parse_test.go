package changelog

import (
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"
)

func sampleRecords() []*Record {
	at := time.Date(2026, 11, 22, 6, 5, 33, 123456789, time.UTC)
	return []*Record{
		{ID: "pq-0123456789", Kind: KindLog, Type: "implement", Timestamp: at, Agent: "auth", Parent: "pq-aaaaaaaaaa",
			DependsOn: []string{"pq-bbbbbbbbbb"}, Status: "completed", Body: "Added JWT validation\n\nDetails: line two."},
		{ID: "pq-1123456789", Kind: KindLearning, Type: "failure", Timestamp: at, Agent: "auth", Domain: "ci",
			Classification: "foundational", Resolution: "set -p 1", Evidence: &Evidence{Commit: "abc", Branch: "main", Files: []string{"a.go"}, Issue: "#4"},
			Body: "go test hangs: ---\n--- looks like a delimiter but is body"},
		{ID: "pq-2123456789", Kind: KindDecision, Timestamp: at, Agent: "lead", Decision: "Use RS256",
			Alternatives: []string{"HS256", "session"}, Rationale: "public keys", Supersedes: "pq-cccccccccc", Body: "Use RS256"},
		{ID: "pq-3123456789", Kind: KindHandoff, Timestamp: at, Agent: "auth", To: "reviewer", Status: "pending", Body: "  indented\ttabs: and: colons"},
		{ID: "pq-4123456789", Kind: KindCheckpoint, Timestamp: at, Agent: "auth", Name: "before-refactor", Body: ""},
		{ID: "pq-5123456789", Kind: KindLearning, Type: "pattern", Timestamp: at, Agent: "auth", Domain: "auth",
			Classification: "tactical", Supersedes: "pq-1123456789", Tombstone: true},
	}
}

func TestRenderParseRoundTrip(t *testing.T) {
	for _, want := range sampleRecords() {
		t.Run(string(want.Kind), func(t *testing.T) {
			data, err := Render(want)
			if err != nil {
				t.Fatal(err)
			}
			got, err := Parse(RecordPath(want), data)
			if err != nil {
				t.Fatalf("parse of rendered record failed: %v\n%s", err, data)
			}
			want := *want
			want.Path = RecordPath(&want)
			if !reflect.DeepEqual(got, &want) {
				t.Errorf("round trip changed the record\n got: %+v\nwant: %+v", got, &want)
			}
		})
	}
}

func TestParseErrorsNameFileAndLine(t *testing.T) {
	const path = "log/2026-01/pq-00000000aa.md"
	head := "---\nid: pq-00000000aa\nkind: log\n"
	tail := "timestamp: 2026-01-15T10:00:00Z\nagent: auth\n---\nbody\n"
	cases := []struct {
		name, content string
		line          int
		msg           string
	}{
		{"duplicate key", head + "type: start\ntype: end\n" + tail, 5, `duplicate key "type" (first at line 4)`},
		{"unknown key", head + "type: start\ncolour: red\n" + tail, 5, `unknown key "colour"`},
		{"unknown type", head + "type: started\n" + tail, 4, `type: unknown value "started"`},
		{"unknown kind", "---\nid: pq-00000000aa\nkind: memo\n" + tail, 3, `unknown record kind "memo"`},
		{"wrong type for list", head + "type: start\ndepends_on: 7\n" + tail, 5, "cannot unmarshal"},
		{"bad timestamp", head + "type: start\ntimestamp: soon\nagent: auth\n---\n", 5, `timestamp: parsing time "soon"`},
		{"bad id", "---\nid: note-1\nkind: log\ntype: start\n" + tail, 2, `id: "note-1" is not a record id`},
		{"leading blank lines shift lines", "\n\n" + head + "type: start\ntype: end\n" + tail, 7, `duplicate key "type" (first at line 6)`},
		{"no frontmatter", "just text\n", 1, "no frontmatter"},
		{"unclosed frontmatter", "---\nid: pq-00000000aa\n", 1, "no frontmatter"},
		{"not a mapping", "---\n- a\n- b\n---\n", 2, "not a mapping"},
		{"wrong shard", strings.Replace(head+"type: start\n"+tail, "2026-01-15", "2025-03-15", 1), 2, "belongs at log/2025-03/pq-00000000aa.md"},
		{"nul byte", head + "type: start\n" + tail + "\x00", 0, "NUL byte"},
		{"too large", head + "type: start\n" + tail + strings.Repeat("x", MaxRecordSize), 0, "at most 65536"},
		{"invalid utf-8", head + "type: start\n" + tail + "\xff\xfe", 0, "not valid UTF-8"},
		{"failure without resolution", "---\nid: pq-00000000aa\nkind: learning\ntype: failure\ndomain: ci\nclassification: tactical\n" + tail, 0, "needs a resolution"},
		{"field of another kind", head + "type: start\ndecision: x\n" + tail, 5, "a log has no decision"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := path
			if c.name == "failure without resolution" {
				p = "learnings/ci/pq-00000000aa.md"
			}
			_, err := Parse(p, []byte(c.content))
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("want a *ParseError, got %v", err)
			}
			if pe.Path != p || pe.Line != c.line || !strings.Contains(pe.Msg, c.msg) {
				t.Errorf("got %s:%d: %s\nwant %s:%d: ...%s...", pe.Path, pe.Line, pe.Msg, p, c.line, c.msg)
			}
		})
	}
}

func TestCurrentDropsSupersededAndTombstoned(t *testing.T) {
	at := time.Now()
	recs := []*Record{
		{ID: "pq-0000000001", Timestamp: at},
		{ID: "pq-0000000002", Timestamp: at, Supersedes: "pq-0000000001"},
		{ID: "pq-0000000003", Timestamp: at},
		{ID: "pq-0000000004", Timestamp: at, Supersedes: "pq-0000000003", Tombstone: true},
		{ID: "pq-0000000005", Timestamp: at},
	}
	var ids []string
	for _, r := range Current(recs) {
		ids = append(ids, r.ID)
	}
	if want := []string{"pq-0000000002", "pq-0000000005"}; !reflect.DeepEqual(ids, want) {
		t.Errorf("Current = %v, want %v", ids, want)
	}
}

func TestNewIDIsValidAndDistinct(t *testing.T) {
	at := time.Now()
	seen := map[string]bool{}
	for i := 0; i < 10000; i++ {
		id := NewID("auth", KindLog, "same words", at)
		if !ValidID(id) || len(id) != len(IDPrefix)+idHexLen {
			t.Fatalf("bad id %q", id)
		}
		if seen[id] {
			t.Fatalf("duplicate id %q after %d", id, i)
		}
		seen[id] = true
	}
	for _, bad := range []string{"", "pq-", "pq-12", "PQ-0123456789", "pq-0123456789X", "xx-0123456789", "pq-../../etc"} {
		if ValidID(bad) {
			t.Errorf("ValidID(%q) = true", bad)
		}
	}
}

// TestCheckBody: a record whose kind keeps its text in its body is refused
// by Validate without one (blank counts as none), while Parse still reads
// it, so that validate can name a file committed by hand; a decision, a
// checkpoint and a tombstone may have no body.
func TestCheckBody(t *testing.T) {
	for _, r := range sampleRecords() {
		for _, body := range []string{"", " \n\t"} {
			r := *r
			r.Body = body
			err := Validate(&r)
			var fe *FieldError
			wantRefused := !r.Kind.Spec().BodyOptional && !r.Tombstone
			if got := errors.As(err, &fe) && fe.Field == "body"; got != wantRefused {
				t.Errorf("%s (tombstone %v) with body %q: Validate = %v, want refused %v", r.Kind, r.Tombstone, body, err, wantRefused)
			}
			data, err := Render(&r)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := Parse(RecordPath(&r), data); err != nil {
				t.Errorf("%s with body %q: Parse = %v, want it read", r.Kind, body, err)
			}
		}
	}
}
