package readmodel

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/staterepo"
)

// The record cache's file format: a magic string and a version, the count
// of entries, then each entry as a blob ID and its record's fields in a
// fixed order, strings as a length and bytes, times as Unix nanoseconds. It
// decodes several times quicker than gob, and needs no type registration
// when planq starts.
const (
	cacheMagic = "planq-record-cache\n"
	// cacheVersion changes whenever the encoding of a record changes, so an
	// old cache is ignored rather than misread.
	cacheVersion = 2
	// maxCacheString bounds one string in the file: a longer one means the
	// file is damaged (records are at most changelog.MaxRecordSize).
	maxCacheString = 1 << 22
)

var errDamaged = errors.New("damaged record cache")

type cacheWriter struct {
	w   *bufio.Writer
	buf [binary.MaxVarintLen64]byte
}

func (e *cacheWriter) uint(v uint64) {
	n := binary.PutUvarint(e.buf[:], v)
	_, _ = e.w.Write(e.buf[:n])
}

func (e *cacheWriter) int(v int64) {
	n := binary.PutVarint(e.buf[:], v)
	_, _ = e.w.Write(e.buf[:n])
}

func (e *cacheWriter) str(s string) {
	e.uint(uint64(len(s)))
	_, _ = e.w.WriteString(s)
}

func (e *cacheWriter) strs(ss []string) {
	e.uint(uint64(len(ss)))
	for _, s := range ss {
		e.str(s)
	}
}

func (e *cacheWriter) flag(b bool) {
	if b {
		_ = e.w.WriteByte(1)
	} else {
		_ = e.w.WriteByte(0)
	}
}

// encodeCache writes entries in the cache's format.
func encodeCache(w io.Writer, entries map[staterepo.Hash]*changelog.Record) error {
	e := &cacheWriter{w: bufio.NewWriterSize(w, 1<<16)}
	_, _ = e.w.WriteString(cacheMagic)
	e.uint(cacheVersion)
	e.uint(uint64(len(entries)))
	for id, r := range entries {
		_, _ = e.w.Write(id[:])
		e.record(r)
	}
	return e.w.Flush()
}

// record writes every field of r but Path, which follows from the others.
func (e *cacheWriter) record(r *changelog.Record) {
	for _, s := range []string{r.ID, string(r.Kind), string(r.Type), r.Agent, r.Parent, string(r.Status), r.Supersedes,
		r.Subject, r.Decision, r.Rationale, r.Domain, string(r.Classification), r.Resolution, r.To, r.Name, r.Body} {
		e.str(s)
	}
	e.uint(uint64(r.Timestamp.UnixNano()))
	_, offset := r.Timestamp.Zone()
	e.int(int64(offset))
	e.flag(r.Tombstone)
	e.flag(r.AllowSecret)
	e.strs(r.DependsOn)
	e.strs(r.Alternatives)
	e.uint(uint64(len(r.Sources)))
	for _, s := range r.Sources {
		e.str(s.ID)
		e.str(s.Agent)
	}
	e.flag(r.Evidence != nil)
	if ev := r.Evidence; ev != nil {
		e.str(ev.Commit)
		e.str(ev.Branch)
		e.strs(ev.Files)
		e.str(ev.Issue)
	}
}

type cacheReader struct {
	r   *bufio.Reader
	err error
}

func (d *cacheReader) uint() uint64 {
	if d.err != nil {
		return 0
	}
	v, err := binary.ReadUvarint(d.r)
	if err != nil {
		d.err = errDamaged
	}
	return v
}

func (d *cacheReader) int() int64 {
	if d.err != nil {
		return 0
	}
	v, err := binary.ReadVarint(d.r)
	if err != nil {
		d.err = errDamaged
	}
	return v
}

func (d *cacheReader) str() string {
	n := d.uint()
	if d.err != nil {
		return ""
	}
	if n > maxCacheString {
		d.err = errDamaged
		return ""
	}
	b := make([]byte, n)
	if _, err := io.ReadFull(d.r, b); err != nil {
		d.err = errDamaged
		return ""
	}
	return string(b)
}

func (d *cacheReader) strs() []string {
	n := d.uint()
	if d.err != nil || n == 0 {
		return nil
	}
	if n > maxCacheString {
		d.err = errDamaged
		return nil
	}
	out := make([]string, 0, n)
	for range n {
		out = append(out, d.str())
	}
	return out
}

func (d *cacheReader) flag() bool {
	if d.err != nil {
		return false
	}
	b, err := d.r.ReadByte()
	if err != nil || b > 1 {
		d.err = errDamaged
	}
	return b == 1
}

// decodeCache reads a cache file; a file of another version, or damaged, is
// an error (and the cache starts empty).
func decodeCache(r io.Reader) (map[staterepo.Hash]*changelog.Record, error) {
	d := &cacheReader{r: bufio.NewReaderSize(r, 1<<16)}
	magic := make([]byte, len(cacheMagic))
	if _, err := io.ReadFull(d.r, magic); err != nil || string(magic) != cacheMagic {
		return nil, errDamaged
	}
	if v := d.uint(); d.err != nil || v != cacheVersion {
		return nil, fmt.Errorf("record cache of version %d, not %d", v, cacheVersion)
	}
	n := d.uint()
	if d.err != nil || n > 1<<24 {
		return nil, errDamaged
	}
	entries := make(map[staterepo.Hash]*changelog.Record, n)
	for range n {
		var id staterepo.Hash
		if _, err := io.ReadFull(d.r, id[:]); err != nil {
			return nil, errDamaged
		}
		r := d.record()
		if d.err != nil {
			return nil, d.err
		}
		r.Path = changelog.RecordPath(r) // a valid record lives only there
		entries[id] = r
	}
	return entries, nil
}

func (d *cacheReader) record() *changelog.Record {
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
	if n := d.uint(); n > 0 && n <= maxCacheString {
		r.Sources = make([]changelog.Source, n)
		for i := range r.Sources {
			r.Sources[i] = changelog.Source{ID: d.str(), Agent: d.str()}
		}
	}
	if d.flag() {
		r.Evidence = &changelog.Evidence{Commit: d.str(), Branch: d.str(), Files: d.strs(), Issue: d.str()}
	}
	return r
}
