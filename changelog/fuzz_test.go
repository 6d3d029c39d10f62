package changelog

import (
	"reflect"
	"testing"
)

// FuzzParse feeds arbitrary bytes to the parser: it must never panic, and
// whatever it accepts must survive a render and a second parse unchanged.
func FuzzParse(f *testing.F) {
	for _, r := range sampleRecords() {
		data, err := Render(r)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(RecordPath(r), data)
	}
	f.Add("log/2026-01/pq-00000000aa.md", []byte("---\nid: pq-00000000aa\nkind: log\ntype: start\ntype: end\n---\n"))
	f.Add("log/2026-01/pq-00000000aa.md", []byte("---\n: :\n---\n"))
	f.Add("log/2026-01/pq-00000000aa.md", []byte("---\nid: &a [*a]\n---\n"))
	f.Fuzz(func(t *testing.T, path string, data []byte) {
		rec, err := Parse(path, data)
		if err != nil {
			return
		}
		out, err := Render(rec)
		if err != nil {
			t.Fatalf("render of parsed record failed: %v", err)
		}
		again, err := Parse(path, out)
		if err != nil {
			t.Fatalf("parse of re-rendered record failed: %v\n%s", err, out)
		}
		if !reflect.DeepEqual(rec, again) {
			t.Fatalf("render/parse changed the record\nfirst:  %+v\nsecond: %+v", rec, again)
		}
	})
}
