package changelog

import (
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/planq-dev/planq/planqerr"
)

// withMemo adds a generic kind with extra fields to the table for one test,
// as a row added to kind.go would.
func withMemo(t *testing.T) {
	t.Helper()
	saved := table
	table = append(slices.Clip(table), Spec{Kind: "memo", Noun: "memo", Dir: "memos", Shard: ShardByMonth,
		Statuses: []Status{StatusPending, StatusAcknowledged}, Searched: true, Generic: true,
		Extra: []ExtraField{{Key: "audience", Required: true, About: "who it is for"}, {Key: "cc", List: true}}})
	t.Cleanup(func() { table = saved })
}

const memoPath = "memos/2026-11/pq-0123456789.md"

func memoFile(extra string) string {
	return "---\nid: pq-0123456789\nkind: memo\ntimestamp: 2026-11-20T10:00:00Z\nagent: a\nstatus: pending\n" + extra + "---\nQuarterly planning\n"
}

func TestTableExtraFieldsAreKeysOfTheirOwn(t *testing.T) {
	if err := checkRows(table); err != nil {
		t.Fatal(err)
	}
	for _, bad := range []ExtraField{{Key: "domain"}, {Key: "Audience"}, {Key: "to-whom"}, {Key: ""}, {Key: "json"}} {
		if err := checkRows([]Spec{{Kind: "memo", Extra: []ExtraField{bad}}}); err == nil {
			t.Errorf("extra field %q passed", bad.Key)
		}
	}
	if err := checkRows([]Spec{{Kind: "a", Extra: []ExtraField{{Key: "x"}}}, {Kind: "b", Extra: []ExtraField{{Key: "x", List: true}}}}); err == nil {
		t.Error("a key that is a string in one row and a list in another passed")
	}
}

func TestExtraFieldsRoundTrip(t *testing.T) {
	withMemo(t)
	r, err := NewRecord("memo", RecordInput{Text: " Quarterly planning ", Extra: map[string]any{"audience": " leads ", "cc": []string{"ops", "sre"}}})
	if err != nil {
		t.Fatal(err)
	}
	r.ID, r.Agent, r.Timestamp = "pq-0123456789", "a", time.Date(2026, 11, 20, 10, 0, 0, 0, time.UTC)
	if err := Validate(r); err != nil {
		t.Fatal(err)
	}
	data, err := Render(r)
	if err != nil {
		t.Fatal(err)
	}
	// The row's order, after every other key.
	want := memoFile("audience: leads\ncc:\n  - ops\n  - sre\n")
	if string(data) != want {
		t.Fatalf("rendered\n%s\nwant\n%s", data, want)
	}
	got, err := Parse(memoPath, data)
	if err != nil {
		t.Fatal(err)
	}
	r.Path = memoPath
	if !reflect.DeepEqual(got, r) {
		t.Errorf("round trip changed the record\n got: %+v\nwant: %+v", got, r)
	}
	if got.ExtraText("audience") != "leads" || !slices.Equal(got.ExtraList("cc"), []string{"ops", "sre"}) {
		t.Errorf("accessors read %q %q", got.ExtraText("audience"), got.ExtraList("cc"))
	}
	if !Kind("memo").Spec().HasField("audience") || KindLog.Spec().HasField("audience") {
		t.Error("HasField does not follow the rows' extra fields")
	}
}

func TestExtraFieldsParsedStrictly(t *testing.T) {
	withMemo(t)
	cases := []struct {
		name, extra string
		line        int
		msg         string
	}{
		{"a number is a string", "audience: 3\n", 0, ""},
		{"list for a string", "audience:\n  - leads\n", 7, "audience: is a list; a memo's audience is one string"},
		{"string for a list", "audience: leads\ncc: ops\n", 8, "cc: is one string; a memo's cc is a list of strings"},
		{"mapping", "audience:\n  who: leads\n", 8, "audience: is neither a string nor a list of strings"},
		{"list of lists", "audience: leads\ncc:\n  - [a]\n", 9, "cc: a list holds strings only"},
		{"missing", "", 0, "audience: is missing: a memo has one"},
		{"empty is missing", "audience: ''\n", 7, "audience: is missing"},
		{"key of no kind", "audience: leads\nvenue: hall\n", 8, `unknown key "venue"`},
		{"key of another kind", "audience: leads\ndomain: auth\n", 8, "domain: a memo has no domain"},
		{"duplicate", "audience: leads\naudience: all\n", 8, `duplicate key "audience" (first at line 7)`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Parse(memoPath, []byte(memoFile(c.extra)))
			if c.msg == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			var pe *ParseError
			if !errors.As(err, &pe) || pe.Line != c.line || !strings.Contains(pe.Msg, c.msg) {
				t.Fatalf("got %v, want line %d: %s", err, c.line, c.msg)
			}
		})
	}
	// A kind that declares none refuses the key, at its line.
	_, err := Parse("log/2026-11/pq-0123456789.md", []byte("---\nid: pq-0123456789\nkind: log\ntype: start\ntimestamp: 2026-11-20T10:00:00Z\nagent: a\naudience: leads\n---\nx\n"))
	var pe *ParseError
	if !errors.As(err, &pe) || pe.Line != 7 || pe.Msg != "audience: a log has no audience" {
		t.Fatalf("a log with an audience: %v", err)
	}
}

func TestNewRecordFollowsTheRow(t *testing.T) {
	withMemo(t)
	r, err := NewRecord("memo", RecordInput{Text: "x", Extra: map[string]any{"audience": "all", "cc": []string{" "}}})
	if err != nil {
		t.Fatal(err)
	}
	if r.Status != StatusPending || r.Type != "" || len(r.Extra) != 1 {
		t.Errorf("got status %q type %q extra %v: want the first status, no type, no empty field", r.Status, r.Type, r.Extra)
	}
	// A list as JSON decodes it.
	r, err = NewRecord("memo", RecordInput{Text: "x", Extra: map[string]any{"audience": "all", "cc": []any{"ops", " sre "}}})
	if err != nil || !slices.Equal(r.ExtraList("cc"), []string{"ops", "sre"}) {
		t.Errorf("a JSON list: %v, %v", r, err)
	}
	for _, c := range []struct {
		kind Kind
		in   RecordInput
		msg  string
	}{
		{KindLog, RecordInput{Text: "x"}, "log: is not a kind written this way"},
		{"memo", RecordInput{Text: " ", Extra: map[string]any{"audience": "all"}}, "memo: text is empty"},
		{"memo", RecordInput{Text: "x", Type: TypeStart, Extra: map[string]any{"audience": "all"}}, "memo: a memo has no type"},
		{"memo", RecordInput{Text: "x", Extra: map[string]any{"audience": " "}}, "memo: audience: is missing"},
		{"memo", RecordInput{Text: "x", Extra: map[string]any{"audience": "all", "venue": "hall"}}, "memo: venue: a memo has no venue"},
		{"memo", RecordInput{Text: "x", Extra: map[string]any{"audience": 3}}, "memo: audience: is neither a string nor a list of strings; a memo's audience is one string"},
		{"memo", RecordInput{Text: "x", Extra: map[string]any{"audience": "all", "cc": []any{"a", 1}}}, "memo: cc: is neither"},
	} {
		_, err := NewRecord(c.kind, c.in)
		if !planqerr.Is(err, planqerr.Invalid) || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("%s %+v: got %v, want %q", c.kind, c.in, err, c.msg)
		}
	}
	// A tombstone leaves a required field out.
	tomb, err := NewTombstone(&Record{ID: "pq-0123456789", Kind: "memo", Extra: map[string]any{"audience": "all"}}, "wrong")
	if err != nil {
		t.Fatal(err)
	}
	tomb.ID, tomb.Agent, tomb.Timestamp = "pq-1123456789", "a", time.Now()
	if err := Validate(tomb); err != nil {
		t.Errorf("a memo's tombstone: %v", err)
	}
}

// checkRows holds the table's extra fields to what their readers need: a
// key of their own that a flag and an MCP property can take, of one type in
// every row that declares it.
func checkRows(rows []Spec) error {
	list := map[Field]bool{}
	for _, s := range rows {
		for _, f := range s.Extra {
			if !validExtraKey(string(f.Key)) || knownKeys()[string(f.Key)] || slices.Contains(frontEndNames, string(f.Key)) {
				return fmt.Errorf("kind %s: extra field %q is not a key of its own (lower-case letters, digits, '_'; no Record key, no name of %s)",
					s.Kind, f.Key, strings.Join(frontEndNames, ", "))
			}
			if was, ok := list[f.Key]; ok && was != f.List {
				return fmt.Errorf("kind %s: extra field %q is a list in one row and a string in another", s.Kind, f.Key)
			}
			list[f.Key] = f.List
		}
	}
	return nil
}

// frontEndNames are what the writers of a generic kind call their own
// flags and properties beside its fields.
var frontEndNames = []string{"json", "help", "dir", "verbose", "quiet", "text", "extra"}

func validExtraKey(k string) bool {
	if k == "" || k[0] < 'a' || k[0] > 'z' {
		return false
	}
	for _, c := range k {
		if (c < 'a' || c > 'z') && (c < '0' || c > '9') && c != '_' {
			return false
		}
	}
	return true
}
