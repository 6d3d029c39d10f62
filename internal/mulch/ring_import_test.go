package mulch

import (
	"encoding/json"
	"fmt"
	"reflect"
	"testing"

	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/internal/testkit/ringgraph"
)

// entriesOf is a mulch file whose records supersede each other as the
// versions of recs do (tombstones left out; a link to one is to no record
// of the file).
func entriesOf(recs []*changelog.Record) []Entry {
	mulchID := map[string]string{}
	for i, r := range recs {
		if !r.Tombstone {
			mulchID[r.ID] = fmt.Sprintf("mx-%06x", i)
		}
	}
	var out []Entry
	for _, r := range recs {
		if r.Tombstone {
			continue
		}
		m := Record{ID: mulchID[r.ID], Type: "convention", Classification: "foundational", Content: r.Body,
			RecordedAt: r.Timestamp.UTC().Format("2006-01-02T15:04:05.000Z")}
		if r.Supersedes != "" {
			to, ok := mulchID[r.Supersedes]
			if !ok {
				to = "mx-ffffff"
			}
			m.Supersedes = []string{to}
		}
		out = append(out, Entry{Domain: "x", File: "expertise/x.jsonl", Line: len(out) + 1, Record: m})
	}
	return out
}

// checkNoRing imports entries and holds the learnings to: no ring of
// versions among them; each link dropped is one that would have closed
// one, is kept as a tag, and is the one naming the ring's newest version;
// and an export gives back what mulch wrote.
func checkNoRing(t *testing.T, entries []Entry) {
	t.Helper()
	var conv []Converted
	var refused []Refusal
	ringgraph.Within(t, ringgraph.Deadline, "ToPlanq", func() { conv, refused = ToPlanq(Config{}, "p", entries, nil) })
	if len(refused) > 0 {
		t.Fatalf("refused: %v", refused)
	}
	recs := make([]*changelog.Record, len(conv))
	for i, c := range conv {
		recs[i] = c.Record
	}
	if on := ringgraph.Rings(recs); len(on) > 0 {
		t.Errorf("the learnings supersede each other in a ring: %v", on)
	}
	// The rings mulch's links make, as planq would have linked them.
	linked := make([]*changelog.Record, len(conv))
	for i, c := range conv {
		cp := *c.Record
		if c.Unlinked != nil {
			cp.Supersedes = c.Unlinked.Supersedes
		}
		linked[i] = &cp
	}
	rings := 0
	for _, ring := range changelog.SupersedesRings(linked) {
		if len(ring) > 1 {
			rings++
		}
	}
	dropped := 0
	for _, c := range conv {
		u := c.Unlinked
		if u == nil {
			continue
		}
		dropped++
		if c.Record.Supersedes != "" || !hasTag(c.Record, "mulch:supersedes="+u.Link) {
			t.Errorf("%s: link %q dropped, but the learning reads supersedes %q, tags %v", c.Record.ID, u.Link, c.Record.Supersedes, c.Record.Tags)
		}
		if want := ringgraph.Newest(linked, u.Ring); u.Supersedes != want {
			t.Errorf("%s: dropped the link to %s of ring %v, not the one to its newest, %s", c.Record.ID, u.Supersedes, u.Ring, want)
		}
	}
	if dropped != rings {
		t.Errorf("%d links dropped for %d rings", dropped, rings)
	}
	idOf := IDMap(recs)
	for i, r := range recs {
		if got := FromPlanq(r, idOf); !reflect.DeepEqual(got, entries[i].Record) {
			g, _ := json.Marshal(got)
			w, _ := json.Marshal(entries[i].Record)
			t.Errorf("round trip of %d:\n got  %s\n want %s", i, g, w)
		}
	}
}

// Issue 36, item 1: two mulch records that supersede each other were
// imported as a ring, and every command that followed supersedes looped.
func TestRingImportDropsTheLinkThatClosesIt(t *testing.T) {
	entries := []Entry{
		{Domain: "x", File: "expertise/x.jsonl", Line: 1, Record: Record{ID: "mx-0000aa", Type: "convention", Content: "use tabs",
			Classification: "foundational", RecordedAt: "2026-01-01T00:00:00.000Z", Supersedes: []string{"mx-0000bb"}}},
		{Domain: "x", File: "expertise/x.jsonl", Line: 2, Record: Record{ID: "mx-0000bb", Type: "convention", Content: "use spaces",
			Classification: "foundational", RecordedAt: "2026-01-02T00:00:00.000Z", Supersedes: []string{"mx-0000aa"}}},
	}
	checkNoRing(t, entries)
	conv, _ := ToPlanq(Config{}, "p", entries, nil)
	tabs, spaces := conv[0], conv[1]
	if tabs.Unlinked == nil || tabs.Unlinked.Link != "mx-0000bb" || tabs.Unlinked.Supersedes != spaces.Record.ID ||
		spaces.Unlinked != nil || spaces.Record.Supersedes != tabs.Record.ID {
		t.Errorf("the newer record (spaces) should supersede the older, whose link is kept as a tag: %+v %+v", tabs, spaces)
	}
}

func TestRingImportOfEveryShape(t *testing.T) {
	for seed := range uint64(200) {
		checkNoRing(t, entriesOf(ringgraph.Random(seed, 30)))
		if t.Failed() {
			t.Fatalf("seed %d", seed)
		}
	}
	var b ringgraph.Builder
	at := b.Chain(10_000)
	b.Link(at[0], at[len(at)-1])
	checkNoRing(t, entriesOf(b.Records))
}

// FuzzRingImport imports mulch records whose supersedes the fuzzer's bytes
// draw; CI runs it with -fuzz.
func FuzzRingImport(f *testing.F) {
	f.Add([]byte{0x05, 1, 0x01, 2})
	f.Add([]byte{0x01, 0, 0x09, 0, 0x05, 3})
	f.Fuzz(func(t *testing.T, data []byte) {
		checkNoRing(t, entriesOf(ringgraph.FromBytes(data)))
	})
}
