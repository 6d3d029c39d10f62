package engine

import (
	"encoding/binary"
	"errors"
	"sort"
	"time"

	"github.com/planq-dev/planq/changelog"
)

// How a record is kept in a segment: its fields in a fixed order, strings as
// a length and bytes, times as Unix nanoseconds and a zone offset. It
// decodes several times quicker than gob or YAML, and needs no type
// registration when planq starts. Path is not kept: it follows from the
// other fields (changelog.RecordPath).

// maxCodecString bounds one string: a longer one means the bytes are
// damaged (records are at most changelog.MaxRecordSize).
const maxCodecString = 1 << 22

var errDamaged = errors.New("damaged segment")

// appendRecord appends r's encoding to b.
func appendRecord(b []byte, r *changelog.Record) []byte {
	for _, s := range []string{r.ID, string(r.Kind), string(r.Type), r.Agent, r.Parent, string(r.Status), r.Supersedes,
		r.Subject, r.Decision, r.Rationale, r.Domain, string(r.Classification), r.Resolution, r.To, r.Name, r.Body} {
		b = appendString(b, s)
	}
	b = binary.AppendUvarint(b, uint64(r.Timestamp.UnixNano()))
	_, offset := r.Timestamp.Zone()
	b = binary.AppendVarint(b, int64(offset))
	b = appendFlag(b, r.Tombstone)
	b = appendFlag(b, r.AllowSecret)
	b = appendStrings(b, r.DependsOn)
	b = appendStrings(b, r.Alternatives)
	b = binary.AppendUvarint(b, uint64(len(r.Sources)))
	for _, s := range r.Sources {
		b = appendString(b, s.ID)
		b = appendString(b, s.Agent)
	}
	b = appendFlag(b, r.Evidence != nil)
	if ev := r.Evidence; ev != nil {
		b = appendString(b, ev.Commit)
		b = appendString(b, ev.Branch)
		b = appendStrings(b, ev.Files)
		b = appendString(b, ev.Issue)
	}
	b = appendFlag(b, r.Archived)
	b = appendString(b, r.Workspace)
	b = appendString(b, r.AgentKind)
	b = appendStrings(b, r.Tags)
	b = appendString(b, r.Origin)
	b = binary.AppendUvarint(b, uint64(len(r.Anchors)))
	for _, a := range r.Anchors {
		b = appendString(b, a.Path)
		b = appendString(b, a.Lines)
		b = appendString(b, a.Blob)
	}
	b = binary.AppendUvarint(b, uint64(len(r.Files)))
	for _, f := range r.Files {
		b = appendString(b, f.Path)
		b = appendString(b, f.Base)
		b = appendString(b, f.Blob)
		b = binary.AppendUvarint(b, uint64(f.Additions))
	}
	b = appendStrings(b, r.EntriesUsed)
	discarded := make([]string, 0, len(r.EntriesDiscarded))
	for id := range r.EntriesDiscarded {
		discarded = append(discarded, id)
	}
	sort.Strings(discarded)
	b = binary.AppendUvarint(b, uint64(len(discarded)))
	for _, id := range discarded {
		b = appendString(b, id)
		b = appendString(b, r.EntriesDiscarded[id])
	}
	return appendExtra(b, r.Extra)
}

// appendExtra appends a record's extra fields (changelog.Spec.Extra), by
// key, each with a flag saying whether it is a list: the codec learns them
// from the record, never from a kind.
func appendExtra(b []byte, extra map[string]any) []byte {
	b = binary.AppendUvarint(b, uint64(len(extra)))
	if len(extra) == 0 {
		return b
	}
	keys := make([]string, 0, len(extra))
	for k := range extra {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		b = appendString(b, k)
		if list, ok := extra[k].([]string); ok {
			b = appendFlag(b, true)
			b = appendStrings(b, list)
			continue
		}
		s, _ := extra[k].(string) // a record read is validated: a string or a list
		b = appendFlag(b, false)
		b = appendString(b, s)
	}
	return b
}

func appendString(b []byte, s string) []byte {
	b = binary.AppendUvarint(b, uint64(len(s)))
	return append(b, s...)
}

func appendStrings(b []byte, ss []string) []byte {
	b = binary.AppendUvarint(b, uint64(len(ss)))
	for _, s := range ss {
		b = appendString(b, s)
	}
	return b
}

func appendFlag(b []byte, v bool) []byte {
	if v {
		return append(b, 1)
	}
	return append(b, 0)
}

// decoder reads what the append functions wrote. The first error sticks;
// every read after it returns zero values.
type decoder struct {
	b   []byte
	err error
}

func (d *decoder) fail() { d.err, d.b = errDamaged, nil }

func (d *decoder) uint() uint64 { return varint(d, binary.Uvarint) }
func (d *decoder) int() int64   { return varint(d, binary.Varint) }

// varint reads one varint with read (binary.Uvarint or binary.Varint).
func varint[T uint64 | int64](d *decoder, read func([]byte) (T, int)) T {
	if d.err != nil {
		return 0
	}
	v, n := read(d.b)
	if n <= 0 {
		d.fail()
		return 0
	}
	d.b = d.b[n:]
	return v
}

func (d *decoder) bytes(n uint64) []byte {
	if d.err != nil {
		return nil
	}
	if n > uint64(len(d.b)) {
		d.fail()
		return nil
	}
	out := d.b[:n:n]
	d.b = d.b[n:]
	return out
}

func (d *decoder) str() string {
	n := d.uint()
	if n > maxCodecString {
		d.fail()
		return ""
	}
	return string(d.bytes(n))
}

func (d *decoder) strs() []string {
	n := d.uint()
	if d.err != nil || n == 0 {
		return nil
	}
	if n > uint64(len(d.b)) { // each string takes a byte at least
		d.fail()
		return nil
	}
	out := make([]string, 0, n)
	for range n {
		out = append(out, d.str())
	}
	return out
}

func (d *decoder) flag() bool {
	b := d.bytes(1)
	if d.err != nil || b[0] > 1 {
		d.fail()
		return false
	}
	return b[0] == 1
}

// record decodes one record's fields, as appendRecord wrote them. After
// damage every field reads as zero, and d says so.
func (d *decoder) record() *changelog.Record {
	r := &changelog.Record{}
	for _, p := range []*string{&r.ID, (*string)(&r.Kind), (*string)(&r.Type), &r.Agent, &r.Parent, (*string)(&r.Status), &r.Supersedes,
		&r.Subject, &r.Decision, &r.Rationale, &r.Domain, (*string)(&r.Classification), &r.Resolution, &r.To, &r.Name, &r.Body} {
		*p = d.str()
	}
	r.Timestamp = time.Unix(0, int64(d.uint())).UTC()
	if offset := d.int(); offset != 0 { // as written: a hand-written +02:00 stays so
		r.Timestamp = r.Timestamp.In(time.FixedZone("", int(offset)))
	}
	r.Tombstone = d.flag()
	r.AllowSecret = d.flag()
	r.DependsOn = d.strs()
	r.Alternatives = d.strs()
	if n := d.count(); n > 0 {
		r.Sources = make([]changelog.Source, n)
		for i := range r.Sources {
			r.Sources[i] = changelog.Source{ID: d.str(), Agent: d.str()}
		}
	}
	if d.flag() {
		r.Evidence = &changelog.Evidence{Commit: d.str(), Branch: d.str(), Files: d.strs(), Issue: d.str()}
	}
	r.Archived = d.flag()
	r.Workspace = d.str()
	r.AgentKind = d.str()
	r.Tags = d.strs()
	r.Origin = d.str()
	if n := d.count(); n > 0 {
		r.Anchors = make([]changelog.Anchor, n)
		for i := range r.Anchors {
			r.Anchors[i] = changelog.Anchor{Path: d.str(), Lines: d.str(), Blob: d.str()}
		}
	}
	if n := d.count(); n > 0 {
		r.Files = make([]changelog.ProposedFile, n)
		for i := range r.Files {
			r.Files[i] = changelog.ProposedFile{Path: d.str(), Base: d.str(), Blob: d.str(), Additions: int(d.uint())}
		}
	}
	r.EntriesUsed = d.strs()
	r.EntriesDiscarded = d.discarded()
	r.Extra = d.extra()
	return r
}

// count reads how many items follow, each of a byte at least: more than
// the bytes left is damage, and none.
func (d *decoder) count() uint64 {
	n := d.uint()
	if n > uint64(len(d.b)) {
		d.fail()
		return 0
	}
	return n
}

// discarded decodes a proposal's entries_discarded; nil for none.
func (d *decoder) discarded() map[string]string {
	n := d.count()
	if n == 0 {
		return nil
	}
	out := make(map[string]string, n)
	for range n {
		id := d.str()
		out[id] = d.str()
	}
	return out
}

// extra decodes a record's fields of no kind's, each a string or a list;
// nil for none.
func (d *decoder) extra() map[string]any {
	n := d.count()
	if n == 0 {
		return nil
	}
	out := make(map[string]any, n)
	for range n {
		k := d.str()
		if d.flag() {
			out[k] = d.strs()
		} else {
			out[k] = d.str()
		}
	}
	return out
}

// decodeRecord decodes exactly one record from b; bytes left over mean
// damage as much as bytes missing.
func decodeRecord(b []byte) (*changelog.Record, error) {
	d := &decoder{b: b}
	r := d.record()
	if d.err == nil && len(d.b) != 0 {
		d.fail()
	}
	if d.err != nil {
		return nil, d.err
	}
	r.Path = changelog.RecordPath(r) // a valid record lives only there
	return r, nil
}
