package engine

import (
	"cmp"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"maps"
	"math"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"time"

	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/staterepo"
)

// A status tally is one domain's learnings (learnings/<domain>) on every
// branch, counted as planq status counts them: each once, by its state,
// type and classification, with what the counts that move with the clock
// (the weeks written in, shelf life, anchors) need kept sorted, so that a
// status reads a tally per domain, never every learning (see tally.go).
//
//	head      shard path, flags, domain, the counts, the newest and oldest
//	          current learning's time, the classifications of the current
//	          ones, per tree its problems, the edges that cross shards
//	written   every learning's time (no retraction), ascending
//	disputed  the current disputed ones' times, ascending
//	classes   the current ones' times, ascending, per classification in
//	          the head's order
//	ids       per learning (by ID hash) its ID, what it supersedes, its
//	          time, its classification (current ones) and its state
//	anchored  the current ones anchored to code: ID, time, anchors
const (
	statusTallyKind    = "status-tally"
	statusCrossedKind  = "status-tally-crossed"
	statusTallyVersion = 1
	statusIDSize       = 28
	notCurrent         = math.MaxUint16
)

// The sections of a status tally.
const (
	statusHead = iota
	statusWritten
	statusDisputed
	statusClasses
	statusIDs
	statusAnchored
	statusSections
)

// A learning's state in a status tally's ids.
const (
	stateTombstone = 1 << iota
	stateArchived
	stateCurrent
	stateReplaced
)

// DomainTally is one domain's learnings as planq status counts them: each
// once on global and every agent branch, by its state (current, replaced
// by a newer version, retracted, archived), type and classification, and
// the current ones' span; and, for what moves with the clock, the times
// kept sorted (Written, DisputedTimes, ClassTimes) and the current
// learnings by ID (CurrentLearning) and anchored (Anchored).
type DomainTally struct {
	Domain                                             string
	Current, Superseded, Retracted, Archived, Disputed int
	ByType, ByClassification                           map[string]int
	Newest, Oldest                                     time.Time

	classes []string
	// secs are the tally's sections: parts of f's mapping, which the
	// tally holds as long as they are read.
	secs     [statusSections][]byte
	f        *tallyFile
	out      []crossEdge
	problems [][]*changelog.ParseError
	flags    byte
}

// crossEdge is a learning that supersedes one of another domain, as
// status counts by it.
type crossEdge struct {
	edge
	successor
}

// successor is a record that supersedes another: what status counts the
// other by.
type successor struct {
	id       string
	at       int64
	tomb     bool
	archived bool
}

// later orders two successors of one record as Successors does: the later
// in time, then ID, wins.
func (s successor) later(than successor) bool {
	return s.at > than.at || (s.at == than.at && s.id > than.id)
}

// Times are Unix nanosecond times, ascending.
type Times []byte

// Len is how many times there are.
func (t Times) Len() int { return len(t) / 8 }

// At is time i.
func (t Times) At(i int) time.Time { return time.Unix(0, t.nanos(i)) }

func (t Times) nanos(i int) int64 { return int64(binary.LittleEndian.Uint64(t[8*i:])) }

// While counts the times, from the oldest, for which holds is true: holds
// is true of a time only if of every older one.
func (t Times) While(holds func(time.Time) bool) int {
	return sort.Search(t.Len(), func(i int) bool { return !holds(t.At(i)) })
}

// Buckets counts the times in each of n buckets; bucket names each time's
// (outside 0..n-1 for none), never a lower one for a later time.
func (t Times) Buckets(n int, bucket func(time.Time) int) []int {
	out := make([]int, n)
	from := t.While(func(at time.Time) bool { return bucket(at) < 0 })
	for j := range out {
		to := t.While(func(at time.Time) bool { return bucket(at) <= j })
		out[j] = max(0, to-from)
		from = max(from, to)
	}
	return out
}

func appendTimes(b []byte, ts []int64) []byte {
	for _, at := range ts {
		b = binary.LittleEndian.AppendUint64(b, uint64(at))
	}
	return b
}

// Written are the times of the domain's learnings, current or not (no
// retraction).
func (d *DomainTally) Written() Times { return Times(d.secs[statusWritten]) }

// DisputedTimes are the times of the current disputed learnings.
func (d *DomainTally) DisputedTimes() Times { return Times(d.secs[statusDisputed]) }

// Classes are the classifications of the current learnings.
func (d *DomainTally) Classes() []string { return d.classes }

// ClassTimes are the times of the current learnings of class.
func (d *DomainTally) ClassTimes(class string) Times {
	b := d.secs[statusClasses]
	at := 0
	for _, c := range d.classes {
		n := d.ByClassification[c]
		if c == class {
			return Times(b[8*at : 8*(at+n)])
		}
		at += n
	}
	return nil
}

// CurrentLearning is the time and classification of the current learning
// whose ID hashes to id (see IDHash); ok is false when it is none of the
// domain's current ones.
func (d *DomainTally) CurrentLearning(id uint64) (at time.Time, class string, ok bool) {
	t := idTable{b: d.secs[statusIDs], size: statusIDSize}
	k, found := t.find(id)
	if !found {
		return time.Time{}, "", false
	}
	e := t.entry(k)
	c := int(binary.LittleEndian.Uint16(e[24:]))
	if e[26]&stateCurrent == 0 || c >= len(d.classes) {
		return time.Time{}, "", false
	}
	return time.Unix(0, int64(binary.LittleEndian.Uint64(e[16:]))), d.classes[c], true
}

// Anchored are the current learnings anchored to code, as far as
// CheckAnchors reads them: ID, time and the anchors with a blob.
func (d *DomainTally) Anchored() []*changelog.Record {
	dec := &decoder{b: d.secs[statusAnchored]}
	var out []*changelog.Record
	for n := dec.count(); n > 0 && dec.err == nil; n-- {
		r := &changelog.Record{ID: dec.str(), Domain: d.Domain, Timestamp: time.Unix(0, dec.int()).UTC()}
		for k := dec.count(); k > 0; k-- {
			r.Anchors = append(r.Anchors, changelog.Anchor{Path: dec.str(), Blob: dec.str()})
		}
		out = append(out, r)
	}
	return out
}

// statusBuild counts the learnings of one domain, each once, oldest first:
// by their successors there (local) and, when the domain is read with
// others, by those of other domains (cross).
type statusBuild struct {
	path    string
	recs    []*changelog.Record
	local   map[string]*changelog.Record
	cross   *crossing
	flags   byte
	domain  string
	out     []crossEdge
	written []int64
	dispute []int64
	byClass map[string][]int64
	d       DomainTally
}

// crossing is what the edges that cross domains say: the successors they
// give, by the hash of the ID they supersede, and the IDs replaced (a
// record another domain's replaces, or one such a successor is and that is
// replaced in its own domain).
type crossing struct {
	into     map[uint64][]successor
	replaced map[uint64]bool
}

// successorOf is the record that id's counts by, if any: of the versions
// that supersede it, the latest.
func (b *statusBuild) successorOf(id string) (successor, bool) {
	var best successor
	found := false
	if r := b.local[id]; r != nil {
		best, found = successorOfRecord(r), true
	}
	if b.cross != nil {
		for _, s := range b.cross.into[IDHash(id)] {
			if !found || s.later(best) {
				best, found = s, true
			}
		}
	}
	return best, found
}

func successorOfRecord(r *changelog.Record) successor {
	return successor{id: r.ID, at: r.Timestamp.UnixNano(), tomb: r.Tombstone, archived: r.Archived}
}

func (b *statusBuild) replaced(id string) bool {
	return b.local[id] != nil || (b.cross != nil && b.cross.replaced[IDHash(id)])
}

// newStatusBuild starts the count of recs, the records of the shard at
// path, each once, sorted oldest first.
func newStatusBuild(p string, recs []*changelog.Record, cross *crossing) *statusBuild {
	b := &statusBuild{path: p, recs: recs, local: map[string]*changelog.Record{}, cross: cross, domain: path.Base(p),
		byClass: map[string][]int64{}, d: DomainTally{ByType: map[string]int{}, ByClassification: map[string]int{}}}
	ids := make(map[string]bool, len(recs))
	for _, r := range recs {
		ids[r.ID] = true
	}
	var edges []versionEdge
	for _, r := range recs {
		if r.Domain != b.domain {
			b.flags |= tallyIrregular // no record's path says another domain (see changelog.RecordPath)
		}
		switch {
		case r.Supersedes == "":
		case ids[r.Supersedes]:
			edges, b.local[r.Supersedes] = append(edges, recordEdge(r)), r // the latest wins, as Successors has it
		default:
			b.out = append(b.out, crossEdge{edge{IDHash(r.ID), IDHash(r.Supersedes)}, successorOfRecord(r)})
		}
	}
	if ringBreaks(edges) != nil {
		b.flags |= tallyRing
	}
	return b
}

// count counts each learning, as Status does, and lays out the tally.
func (b *statusBuild) count() (secs [statusSections][]byte) {
	ids := make([]byte, 0, len(b.recs)*statusIDSize)
	var anchored []*changelog.Record
	for _, r := range b.recs {
		var state byte
		if r.Archived {
			state |= stateArchived
		}
		next, replaced := b.successorOf(r.ID)
		if replaced {
			state |= stateReplaced
		}
		class := uint16(notCurrent)
		switch {
		case r.Tombstone:
			state |= stateTombstone // a retraction, counted on what it retracts
		case replaced:
			b.written = append(b.written, r.Timestamp.UnixNano())
			b.countReplaced(next)
		default:
			state |= stateCurrent
			b.written = append(b.written, r.Timestamp.UnixNano())
			class = b.countCurrent(r)
			if hasAnchors(r) {
				anchored = append(anchored, r)
			}
		}
		ids = appendStatusID(ids, r, state, class)
	}
	secs[statusHead] = b.head()
	secs[statusWritten] = appendTimes(nil, sortedTimes(b.written))
	secs[statusDisputed] = appendTimes(nil, sortedTimes(b.dispute))
	for _, c := range b.d.classes {
		secs[statusClasses] = appendTimes(secs[statusClasses], sortedTimes(b.byClass[c]))
	}
	secs[statusIDs] = sortIDEntries(ids, statusIDSize)
	secs[statusAnchored] = appendAnchored(anchored)
	return secs
}

// countReplaced counts a learning by the version, archiving or retraction
// that replaces it.
func (b *statusBuild) countReplaced(next successor) {
	switch {
	case next.archived && b.replaced(next.id):
		b.d.Superseded++ // archived, then restored as a new version: current again
	case next.archived:
		b.d.Archived++
	case next.tomb:
		b.d.Retracted++
	default:
		b.d.Superseded++
	}
}

// countCurrent counts the current learning r, and returns its
// classification's place in the tally's.
func (b *statusBuild) countCurrent(r *changelog.Record) uint16 {
	d := &b.d
	d.Current++
	d.ByType[string(r.Type)]++
	class := string(r.Classification)
	if d.ByClassification[class]++; d.ByClassification[class] == 1 {
		d.classes = append(d.classes, class)
	}
	at := r.Timestamp.UnixNano()
	b.byClass[class] = append(b.byClass[class], at)
	if r.Status == changelog.StatusDisputed {
		d.Disputed++
		b.dispute = append(b.dispute, at)
	}
	if r.Timestamp.After(d.Newest) {
		d.Newest = r.Timestamp
	}
	if d.Oldest.IsZero() || r.Timestamp.Before(d.Oldest) {
		d.Oldest = r.Timestamp
	}
	return uint16(slices.Index(d.classes, class))
}

func hasAnchors(r *changelog.Record) bool {
	return slices.ContainsFunc(r.Anchors, func(a changelog.Anchor) bool { return a.Blob != "" })
}

func sortedTimes(ts []int64) []int64 {
	slices.Sort(ts)
	return ts
}

func appendStatusID(b []byte, r *changelog.Record, state byte, class uint16) []byte {
	b = binary.LittleEndian.AppendUint64(b, IDHash(r.ID))
	b = binary.LittleEndian.AppendUint64(b, IDHash(r.Supersedes))
	b = binary.LittleEndian.AppendUint64(b, uint64(r.Timestamp.UnixNano()))
	b = binary.LittleEndian.AppendUint16(b, class)
	return append(b, state, 0)
}

// sortIDEntries sorts a table of entries of size bytes by their IDs.
func sortIDEntries(b []byte, size int) []byte {
	entries := make([][]byte, 0, len(b)/size)
	for at := 0; at < len(b); at += size {
		entries = append(entries, b[at:at+size])
	}
	slices.SortFunc(entries, func(x, y []byte) int {
		return cmp.Compare(binary.LittleEndian.Uint64(x), binary.LittleEndian.Uint64(y))
	})
	out := make([]byte, 0, len(b))
	for _, e := range entries {
		out = append(out, e...)
	}
	return out
}

func appendAnchored(recs []*changelog.Record) []byte {
	b := binary.AppendUvarint(nil, uint64(len(recs)))
	for _, r := range recs {
		b = appendString(b, r.ID)
		b = binary.AppendVarint(b, r.Timestamp.UnixNano())
		var anchors []changelog.Anchor
		for _, a := range r.Anchors {
			if a.Blob != "" {
				anchors = append(anchors, a)
			}
		}
		b = binary.AppendUvarint(b, uint64(len(anchors)))
		for _, a := range anchors {
			b = appendString(b, a.Path)
			b = appendString(b, a.Blob)
		}
	}
	return b
}

// head lays out the tally's head but for its problems.
func (b *statusBuild) head() []byte {
	d := &b.d
	h := appendString(nil, b.path)
	h = append(h, b.flags)
	h = appendString(h, b.domain)
	for _, n := range []int{d.Current, d.Superseded, d.Retracted, d.Archived, d.Disputed} {
		h = binary.AppendUvarint(h, uint64(n))
	}
	h = appendCounts(h, d.ByType)
	h = appendStrings(h, d.classes)
	for _, c := range d.classes {
		h = binary.AppendUvarint(h, uint64(d.ByClassification[c]))
	}
	if d.Current > 0 {
		h = appendTime(appendTime(h, d.Newest), d.Oldest)
	}
	h = binary.AppendUvarint(h, uint64(len(b.out)))
	for _, e := range b.out {
		h = binary.LittleEndian.AppendUint64(h, e.edge.id)
		h = binary.LittleEndian.AppendUint64(h, e.old)
		h = appendString(h, e.successor.id)
		h = binary.AppendVarint(h, e.at)
		h = appendFlag(appendFlag(h, e.tomb), e.archived)
	}
	return h
}

func appendCounts(b []byte, counts map[string]int) []byte {
	keys := slices.Sorted(maps.Keys(counts))
	b = binary.AppendUvarint(b, uint64(len(keys)))
	for _, k := range keys {
		b = appendString(b, k)
		b = binary.AppendUvarint(b, uint64(counts[k]))
	}
	return b
}

func appendTime(b []byte, t time.Time) []byte {
	b = binary.AppendVarint(b, t.UnixNano())
	_, offset := t.Zone()
	return binary.AppendVarint(b, int64(offset))
}

func (dec *decoder) time() time.Time {
	t := time.Unix(0, dec.int()).UTC()
	if offset := dec.int(); offset != 0 { // as decodeRecord reads it
		t = t.In(time.FixedZone("", int(offset)))
	}
	return t
}

// readStatusTally reads a status tally of g: its head, and every section
// checked.
func readStatusTally(f *tallyFile, g shardGroup) (*DomainTally, error) {
	d := &DomainTally{f: f}
	for i := range d.secs {
		var err error
		if d.secs[i], err = f.section(i); err != nil {
			return nil, err
		}
	}
	if err := d.readHead(g); err != nil {
		return nil, fmt.Errorf("%w: the status tally of %s: %w", ErrDamagedView, g.path, err)
	}
	return d, nil
}

func (d *DomainTally) readHead(g shardGroup) error {
	dec := &decoder{b: d.secs[statusHead]}
	if p := dec.str(); dec.err == nil && p != g.path {
		return fmt.Errorf("a tally of %s", p)
	}
	if b := dec.bytes(1); len(b) == 1 {
		d.flags = b[0]
	}
	d.Domain = dec.str()
	for _, n := range []*int{&d.Current, &d.Superseded, &d.Retracted, &d.Archived, &d.Disputed} {
		*n = int(dec.uint())
	}
	d.ByType = map[string]int{}
	for n := dec.count(); n > 0; n-- {
		k := dec.str()
		d.ByType[k] = int(dec.uint())
	}
	d.classes = dec.strs()
	d.ByClassification = map[string]int{}
	total := 0
	for _, c := range d.classes {
		d.ByClassification[c] = int(dec.uint())
		total += d.ByClassification[c]
	}
	if d.Current > 0 {
		d.Newest, d.Oldest = dec.time(), dec.time()
	}
	n := dec.uint()
	if n > uint64(len(dec.b))/16 {
		dec.fail()
	}
	for ; n > 0 && dec.err == nil; n-- {
		var e crossEdge
		b := dec.bytes(16)
		if dec.err == nil {
			e.edge = edge{binary.LittleEndian.Uint64(b), binary.LittleEndian.Uint64(b[8:])}
		}
		e.successor = successor{id: dec.str(), at: dec.int(), tomb: dec.flag(), archived: dec.flag()}
		d.out = append(d.out, e)
	}
	d.problems = dec.tallyProblems(len(g.shards))
	if dec.err == nil && len(dec.b) != 0 {
		dec.fail()
	}
	if dec.err != nil {
		return dec.err
	}
	return d.check(total)
}

// check holds the sections to the head's counts.
func (d *DomainTally) check(classes int) error {
	ids := idTable{b: d.secs[statusIDs], size: statusIDSize}
	if classes != d.Current || len(d.secs[statusClasses]) != 8*d.Current || len(d.secs[statusDisputed]) != 8*d.Disputed ||
		len(d.secs[statusWritten])%8 != 0 || len(ids.b)%ids.size != 0 {
		return errors.New("sections that disagree with the counts")
	}
	return nil
}

// buildStatusTally counts g's learnings, by the edges that cross domains
// too when cross is not nil.
func (rd *Store) buildStatusTally(g shardGroup, cross *crossing) ([]byte, error) {
	segs, won, _, err := rd.winners(g)
	if err != nil {
		return nil, err
	}
	refs := make([]Ref, len(won))
	for k, w := range won {
		refs[k] = w.Ref
	}
	recs, err := rd.Decode(refs)
	if err != nil {
		return nil, err
	}
	changelog.SortByTime(recs)
	b := newStatusBuild(g.path, recs, cross)
	secs := b.count()
	secs[statusHead] = appendTallyProblems(secs[statusHead], segs)
	return encodeTally(statusTallyVersion, secs[:]...), nil
}

// statusTallyOf is g's status tally: kept, or built.
func (rd *Store) statusTallyOf(g shardGroup) (*DomainTally, error) {
	file := rd.tallyFileOf(statusTallyKind, statusTallyVersion, g)
	var d *DomainTally
	err := rd.tally(file, statusTallyVersion, statusSections, func() ([]byte, error) { return rd.buildStatusTally(g, nil) },
		func(f *tallyFile) (err error) {
			d, err = readStatusTally(f, g)
			return err
		})
	if err != nil {
		return nil, err
	}
	return d, nil
}

// StatusTallies are the tallies of every domain's learnings in the trees
// of tips, sorted by domain, and the files there that are not readable
// records: what planq status counts, read from a tally per domain (see
// statustally.go), never from every learning. ok is false where the
// tallies leave it to a walk over every learning: a ring of versions, or a
// damaged tally (which the next read builds again).
func (rd *Store) StatusTallies(tips []staterepo.Hash) ([]*DomainTally, []*changelog.ParseError, bool, error) {
	out, problems, ok, err := rd.statusTallies(tips)
	if err == nil && !ok {
		rd.walked()
	}
	return out, problems, ok, err
}

func (rd *Store) statusTallies(tips []staterepo.Hash) ([]*DomainTally, []*changelog.ParseError, bool, error) {
	groups, layout, problems, err := rd.shardGroups(tips, []changelog.Kind{changelog.KindLearning})
	if err != nil {
		return nil, nil, false, err
	}
	out := make([]*DomainTally, len(groups))
	probs := make([][][]*changelog.ParseError, len(groups))
	for g, group := range groups {
		d, err := rd.statusTallyOf(group)
		if errors.Is(err, ErrDamagedView) {
			rd.forget(rd.tallyFileOf(statusTallyKind, statusTallyVersion, group))
			return nil, nil, false, nil
		}
		if err != nil {
			return nil, nil, false, err
		}
		if d.flags != 0 {
			return nil, nil, false, nil
		}
		out[g], probs[g] = d, d.problems
	}
	ok, err := rd.crossDomains(groups, out)
	if !ok || err != nil {
		return nil, nil, false, err
	}
	// A domain of retractions alone, or of files that do not read, has no
	// learning to count.
	out = slices.DeleteFunc(out, func(d *DomainTally) bool { return d.Written().Len() == 0 })
	slices.SortFunc(out, func(a, b *DomainTally) int { return cmp.Compare(a.Domain, b.Domain) })
	return out, tallyProblems(problems, groups, layout, probs), true, nil
}

// crossDomains counts again, by the edges that cross domains, the domains
// they replace learnings of (out, in place); ok is false when the edges
// may close a ring.
func (rd *Store) crossDomains(groups []shardGroup, out []*DomainTally) (bool, error) {
	tables := make([]idTable, len(out))
	edges := make([][]edge, len(out))
	c := &crossing{into: map[uint64][]successor{}, replaced: map[uint64]bool{}}
	for t, d := range out {
		tables[t] = idTable{b: d.secs[statusIDs], size: statusIDSize}
		for _, e := range d.out {
			edges[t] = append(edges[t], e.edge)
			c.into[e.old] = append(c.into[e.old], e.successor)
			c.replaced[e.old] = true
		}
	}
	if len(c.into) == 0 {
		return true, nil
	}
	hit, ok := crossShards(tables, edges)
	if !ok {
		return false, nil
	}
	for t, d := range out {
		for _, e := range d.out {
			if k, found := tables[t].find(e.edge.id); found && tables[t].entry(k)[26]&stateReplaced != 0 {
				c.replaced[e.edge.id] = true
			}
		}
	}
	// What a domain's learnings count by then follows from every domain's
	// tally: the count is kept under their names.
	key := sha256.New()
	for _, g := range groups {
		fmt.Fprintln(key, rd.tallyFileOf(statusTallyKind, statusTallyVersion, g))
	}
	name := fmt.Sprintf("%x.view", key.Sum(nil)[:16])
	for t, g := range groups {
		if len(hit[t]) == 0 {
			continue
		}
		file := filepath.Join(rd.viewDir(statusCrossedKind, g.path), name)
		err := rd.tally(file, statusTallyVersion, statusSections, func() ([]byte, error) { return rd.buildStatusTally(g, c) },
			func(f *tallyFile) (err error) {
				out[t], err = readStatusTally(f, g)
				return err
			})
		if err != nil {
			return false, err
		}
	}
	return true, nil
}
