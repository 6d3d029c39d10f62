package engine

import (
	"cmp"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/staterepo"
)

// A log tally is one log shard (a month) on every branch: its current
// entries newest first (NewestFirst), each once, and per agent how many it
// has and where its newest is, so that log --all reads the newest entries
// of the newest months and the counts, never every entry (see tally.go).
//
//	head   shard path, flags, agents and per agent its count and the place
//	       of its newest entry, the count of entries and their newest and
//	       oldest time, per tree its problems, the edges that cross shards
//	order  per entry (newest first) its time, row, tree and agent
//	ids    per record (by ID hash) its ID, what it supersedes, and its place
//	       in order (noPlace for none: no log entry, or not current)
const (
	logTallyKind    = "log-tally"
	logTallyVersion = 1
	logOrderSize    = 16
	logIDSize       = 20
	noPlace         = math.MaxUint32
)

// The sections of a log tally.
const (
	logHead = iota
	logOrder
	logIDs
	logSections
)

// Tally flags: a ring of versions within the shard, copies of a record
// that disagree on what it supersedes. Either leaves the read to the
// walk over every record.
const (
	tallyRing = 1 << iota
	tallyIrregular
)

// logTally is a log tally's head, read.
type logTally struct {
	f        *tallyFile
	file     string
	group    shardGroup
	flags    byte
	agents   []string
	count    []int   // per agent
	first    []int   // per agent, its newest entry's place in order
	firstAt  []int64 // per agent, its newest entry's time
	n        int
	newest   int64
	oldest   int64
	problems [][]*changelog.ParseError // per tree
	out      []edge
}

// logEntry is one entry of a log tally's order.
type logEntry struct {
	at     int64
	row    int
	member int
	agent  int
}

// built is a shard's record in the making of a tally: the tree it was
// read from, its row there.
type built struct {
	Ref
	member int
}

// winners are the records of g's trees, each once, as the first tree that
// holds it holds it; irregular says two copies disagree on what they
// supersede.
func (rd *Store) winners(g shardGroup) (segs []*Segment, won []built, irregular bool, err error) {
	segs = make([]*Segment, len(g.shards))
	for j, sh := range g.shards {
		if segs[j], err = rd.segment(sh); err != nil {
			return nil, nil, false, err
		}
	}
	first := map[uint64]int{}
	for j, s := range segs {
		for i := range s.Len() {
			id := s.RowID(i)
			if k, ok := first[id]; ok {
				irregular = irregular || won[k].supersedes != s.rowSupersedes(i)
				continue
			}
			first[id] = len(won)
			won = append(won, built{RefAt(s, i), j})
		}
	}
	return segs, won, irregular, nil
}

// buildLogTally merges g's trees into a log tally.
func (rd *Store) buildLogTally(g shardGroup) ([]byte, error) {
	segs, won, irregular, err := rd.winners(g)
	if err != nil {
		return nil, err
	}
	ids := make(map[uint64]bool, len(won))
	for _, w := range won {
		ids[w.id] = true
	}
	var local []versionEdge
	var out []edge
	replaced := map[uint64]bool{}
	for _, w := range won {
		switch {
		case w.supersedes == 0:
		case ids[w.supersedes]:
			local, replaced[w.supersedes] = append(local, refEdge(w.Ref)), true
		default:
			out = append(out, edge{w.id, w.supersedes})
		}
	}
	var flags byte
	if irregular {
		flags |= tallyIrregular
	}
	if ringBreaks(local) != nil {
		flags |= tallyRing
	}
	logKind := kindIndex(changelog.KindLog)
	var entries []built
	for _, w := range won {
		if w.kindIndex == logKind && w.flags&flagTombstone == 0 && !replaced[w.id] {
			entries = append(entries, w)
		}
	}
	slices.SortFunc(entries, func(a, b built) int { return NewestFirst(a.Ref, b.Ref) })
	head, order := encodeLogOrder(g.path, flags, entries)
	head = appendTallyProblems(head, segs)
	head = appendEdges(head, out)
	place := make(map[uint64]uint32, len(entries))
	for p, e := range entries {
		place[e.id] = uint32(p)
	}
	slices.SortFunc(won, func(a, b built) int { return cmp.Compare(a.id, b.id) })
	table := make([]byte, 0, len(won)*logIDSize)
	for _, w := range won {
		p, ok := place[w.id]
		if !ok {
			p = noPlace
		}
		table = binary.LittleEndian.AppendUint64(table, w.id)
		table = binary.LittleEndian.AppendUint64(table, w.supersedes)
		table = binary.LittleEndian.AppendUint32(table, p)
	}
	return encodeTally(logTallyVersion, head, order, table), nil
}

// encodeLogOrder writes the head's first part (path, flags, agents and
// their counts, the entries' count and span) and the order of entries.
func encodeLogOrder(path string, flags byte, entries []built) (head, order []byte) {
	var agents agentTable
	var count, first []int
	order = make([]byte, 0, len(entries)*logOrderSize)
	for p, e := range entries {
		a := int(agents.index(e.agent()))
		if a == len(count) {
			count, first = append(count, 0), append(first, p)
		}
		count[a]++
		order = binary.LittleEndian.AppendUint64(order, uint64(e.at))
		order = binary.LittleEndian.AppendUint32(order, uint32(e.i))
		order = binary.LittleEndian.AppendUint16(order, uint16(e.member))
		order = binary.LittleEndian.AppendUint16(order, uint16(a))
	}
	head = appendString(nil, path)
	head = append(head, flags)
	head = appendStrings(head, agents.names)
	for a := range count {
		head = binary.AppendUvarint(head, uint64(count[a]))
		head = binary.AppendUvarint(head, uint64(first[a]))
		head = binary.AppendVarint(head, entries[first[a]].at)
	}
	head = binary.AppendUvarint(head, uint64(len(entries)))
	if len(entries) > 0 {
		head = binary.AppendVarint(head, entries[0].at)
		head = binary.AppendVarint(head, entries[len(entries)-1].at)
	}
	return head, order
}

// appendTallyProblems writes the problems of each of segs.
func appendTallyProblems(b []byte, segs []*Segment) []byte {
	b = binary.AppendUvarint(b, uint64(len(segs)))
	for _, s := range segs {
		b = binary.AppendUvarint(b, uint64(len(s.problems)))
		for _, p := range s.problems {
			b = appendString(b, p.err.Path)
			b = binary.AppendUvarint(b, uint64(p.err.Line))
			b = appendString(b, p.err.Msg)
		}
	}
	return b
}

func (d *decoder) tallyProblems(members int) [][]*changelog.ParseError {
	if n := d.uint(); d.err == nil && int(n) != members {
		d.fail()
	}
	out := make([][]*changelog.ParseError, members)
	for j := range out {
		n := d.count()
		for range n {
			out[j] = append(out[j], &changelog.ParseError{Path: d.str(), Line: int(d.uint()), Msg: d.str()})
		}
	}
	return out
}

func appendEdges(b []byte, out []edge) []byte {
	b = binary.AppendUvarint(b, uint64(len(out)))
	for _, e := range out {
		b = binary.LittleEndian.AppendUint64(b, e.id)
		b = binary.LittleEndian.AppendUint64(b, e.old)
	}
	return b
}

func (d *decoder) edges() []edge {
	n := d.uint()
	if n > uint64(len(d.b))/16 {
		d.fail()
		return nil
	}
	out := make([]edge, n)
	for k := range out {
		b := d.bytes(16)
		out[k] = edge{binary.LittleEndian.Uint64(b), binary.LittleEndian.Uint64(b[8:])}
	}
	return out
}

// logTallyOf is g's log tally: kept, or built.
func (rd *Store) logTallyOf(g shardGroup) (*logTally, error) {
	file := rd.tallyFileOf(logTallyKind, logTallyVersion, g)
	var t *logTally
	err := rd.tally(file, logTallyVersion, logSections, func() ([]byte, error) { return rd.buildLogTally(g) },
		func(f *tallyFile) (err error) {
			t, err = readLogTally(f, g)
			return err
		})
	if err != nil {
		return nil, err
	}
	t.file = file
	return t, nil
}

// readLogTally reads a log tally's head.
func readLogTally(f *tallyFile, g shardGroup) (*logTally, error) {
	b, err := f.section(logHead)
	if err != nil {
		return nil, err
	}
	d := &decoder{b: b}
	t := &logTally{f: f, group: g}
	if path := d.str(); d.err == nil && path != g.path {
		return nil, fmt.Errorf("%w: a tally of %s, not %s", ErrDamagedView, path, g.path)
	}
	if b := d.bytes(1); len(b) == 1 {
		t.flags = b[0]
	}
	t.agents = d.strs()
	if len(t.agents) > math.MaxUint16 {
		d.fail()
	}
	t.count, t.first, t.firstAt = make([]int, len(t.agents)), make([]int, len(t.agents)), make([]int64, len(t.agents))
	for a := range t.agents {
		t.count[a], t.first[a], t.firstAt[a] = int(d.uint()), int(d.uint()), d.int()
	}
	t.n = int(d.uint())
	if t.n > 0 {
		t.newest, t.oldest = d.int(), d.int()
	}
	t.problems = d.tallyProblems(len(g.shards))
	t.out = d.edges()
	if d.err == nil && len(d.b) != 0 {
		d.fail()
	}
	if d.err != nil {
		return nil, fmt.Errorf("%w: a log tally's head: %w", ErrDamagedView, d.err)
	}
	for a := range t.agents {
		if t.first[a] >= t.n || t.count[a] > t.n {
			return nil, fmt.Errorf("%w: a log tally's agents", ErrDamagedView)
		}
	}
	return t, nil
}

// order is the tally's entries, checked: each of a tree and agent it has.
func (t *logTally) order() ([]byte, error) {
	b, err := t.f.section(logOrder)
	if err != nil {
		return nil, err
	}
	if len(b) != t.n*logOrderSize {
		return nil, fmt.Errorf("%w: a log tally's order", ErrDamagedView)
	}
	for p := range t.n {
		if e := entryAt(b, p); e.member >= len(t.group.shards) || e.agent >= len(t.agents) {
			return nil, fmt.Errorf("%w: a log tally's order", ErrDamagedView)
		}
	}
	return b, nil
}

func entryAt(order []byte, p int) logEntry {
	b := order[p*logOrderSize:]
	le := binary.LittleEndian
	return logEntry{at: int64(le.Uint64(b)), row: int(le.Uint32(b[8:])), member: int(le.Uint16(b[12:])), agent: int(le.Uint16(b[14:]))}
}

// ids is the tally's table of records, checked.
func (t *logTally) ids() (idTable, error) {
	b, err := t.f.section(logIDs)
	if err != nil {
		return idTable{}, err
	}
	if len(b)%logIDSize != 0 {
		return idTable{}, fmt.Errorf("%w: a log tally's records", ErrDamagedView)
	}
	return idTable{b: b, size: logIDSize}, nil
}

func (t idTable) place(k int) uint32 { return binary.LittleEndian.Uint32(t.entry(k)[16:]) }

// LogEntries is Entries over the log directories of tips, read from their
// shards' tallies, with the files there that are not readable records: it
// reads the newest entries and the counts, not every entry. Where a tally
// leaves it to the walk over every entry (a ring of versions, copies that
// disagree, a damaged file), Entries answers.
func (rd *Store) LogEntries(tips []staterepo.Hash, keep func(agent string) bool, since int64, limit int, latest bool) (Entries, []*changelog.ParseError, error) {
	found, problems, ok, err := rd.logFromTallies(tips, keep, since, limit, latest)
	if err != nil && !errors.Is(err, ErrDamagedView) {
		return Entries{}, nil, err
	}
	if ok && err == nil {
		return found, problems, nil
	}
	rd.walked()
	return rd.EntriesWalk(tips, keep, since, limit, latest)
}

// EntriesWalk is LogEntries by Entries, a walk over every entry.
func (rd *Store) EntriesWalk(tips []staterepo.Hash, keep func(agent string) bool, since int64, limit int, latest bool) (Entries, []*changelog.ParseError, error) {
	segs, problems, err := rd.Segments(tips, []changelog.Kind{changelog.KindLog})
	if err != nil {
		return Entries{}, nil, err
	}
	return rd.Entries(segs, keep, since, limit, latest), WithSegmentProblems(problems, segs), nil
}

// logFromTallies is LogEntries from the tallies; ok is false when they
// leave it to Entries.
func (rd *Store) logFromTallies(tips []staterepo.Hash, keep func(agent string) bool, since int64, limit int, latest bool) (Entries, []*changelog.ParseError, bool, error) {
	groups, layout, problems, err := rd.shardGroups(tips, []changelog.Kind{changelog.KindLog})
	if err != nil {
		return Entries{}, nil, false, err
	}
	q := &logRead{rd: rd, keep: keep, since: since, tallies: make([]*logTally, len(groups))}
	probs := make([][][]*changelog.ParseError, len(groups))
	for g, group := range groups {
		t, err := rd.logTallyOf(group)
		if err != nil {
			return Entries{}, nil, false, err
		}
		if t.flags != 0 {
			return Entries{}, nil, false, nil
		}
		q.tallies[g], probs[g] = t, t.problems
	}
	if ok, err := q.cross(); !ok || err != nil {
		return Entries{}, nil, false, err
	}
	found, err := q.entries(limit, latest)
	if err != nil {
		return Entries{}, nil, false, err
	}
	return found, tallyProblems(problems, groups, layout, probs), true, nil
}

// logRead is one read of log tallies: per tally the places of the entries
// another shard's record replaces, and which agents it keeps.
type logRead struct {
	rd      *Store
	keep    func(agent string) bool
	since   int64
	tallies []*logTally
	skip    []map[int]bool
	kept    [][]bool
	orders  [][]byte
}

// cross applies the edges that cross shards; ok is false when they may
// close a ring.
func (q *logRead) cross() (bool, error) {
	q.skip = make([]map[int]bool, len(q.tallies))
	out := make([][]edge, len(q.tallies))
	crossed := false
	for t, lt := range q.tallies {
		out[t], crossed = lt.out, crossed || len(lt.out) > 0
	}
	if !crossed {
		return true, nil
	}
	tables := make([]idTable, len(q.tallies))
	for t, lt := range q.tallies {
		var err error
		if tables[t], err = lt.ids(); err != nil {
			return false, q.damaged(t, err)
		}
	}
	hit, ok := crossShards(tables, out)
	for t, ks := range hit {
		for _, k := range ks {
			if p := tables[t].place(k); p != noPlace {
				if q.skip[t] == nil {
					q.skip[t] = map[int]bool{}
				}
				q.skip[t][int(p)] = true
			}
		}
	}
	return ok, nil
}

// damaged forgets tally t when err says it is damaged, and returns err:
// the walk answers, and the next read builds it again.
func (q *logRead) damaged(t int, err error) error {
	if errors.Is(err, ErrDamagedView) {
		q.rd.forget(q.tallies[t].file)
	}
	return err
}

// entries finds what Entries finds.
func (q *logRead) entries(limit int, latest bool) (Entries, error) {
	q.orders, q.kept = make([][]byte, len(q.tallies)), make([][]bool, len(q.tallies))
	for t, lt := range q.tallies {
		q.kept[t] = make([]bool, len(lt.agents))
		for a, name := range lt.agents {
			q.kept[t][a] = q.keep(name)
		}
	}
	out := Entries{Counts: map[string]int{}}
	if err := q.countAll(out.Counts); err != nil {
		return Entries{}, err
	}
	var err error
	if out.Newest, err = q.newest(limit); err != nil {
		return Entries{}, err
	}
	if latest {
		if out.Latest, err = q.latest(); err != nil {
			return Entries{}, err
		}
	}
	return out, nil
}

// orderOf is tally t's order, read once.
func (q *logRead) orderOf(t int) ([]byte, error) {
	if q.orders[t] == nil {
		b, err := q.tallies[t].order()
		if err != nil {
			return nil, q.damaged(t, err)
		}
		q.orders[t] = b
	}
	return q.orders[t], nil
}

// countAll adds each kept agent's current entries since then to counts: a
// month wholly since then counts from its head, the month since begins in
// by its entries up to there.
func (q *logRead) countAll(counts map[string]int) error {
	for t, lt := range q.tallies {
		n := make([]int, len(lt.agents))
		switch {
		case lt.n == 0 || q.since > lt.newest:
		case q.since <= lt.oldest:
			copy(n, lt.count)
		default:
			order, err := q.orderOf(t)
			if err != nil {
				return err
			}
			for p := 0; p < lt.n && entryAt(order, p).at >= q.since; p++ {
				n[entryAt(order, p).agent]++
			}
		}
		if len(q.skip[t]) > 0 {
			order, err := q.orderOf(t)
			if err != nil {
				return err
			}
			for p := range q.skip[t] {
				if e := entryAt(order, p); e.at >= q.since {
					n[e.agent]--
				}
			}
		}
		for a, c := range n {
			if q.kept[t][a] && c > 0 {
				counts[lt.agents[a]] += c
			}
		}
	}
	return nil
}

// ref is entry p of tally t as a Ref, in its tree's segment.
func (q *logRead) ref(t, p int) (Ref, error) {
	order, err := q.orderOf(t)
	if err != nil {
		return Ref{}, err
	}
	e := entryAt(order, p)
	seg, err := q.rd.segment(q.tallies[t].group.shards[e.member])
	if err != nil {
		return Ref{}, err
	}
	if e.row >= seg.Len() || seg.rowAt(e.row) != e.at {
		return Ref{}, q.damaged(t, fmt.Errorf("%w: a log tally names a row its segment lacks", ErrDamagedView))
	}
	return RefAt(seg, e.row), nil
}

// next is the first place at or after p in tally t of an entry the read
// shows (of an agent kept, not replaced, since then); -1 for none.
func (q *logRead) next(t, p int, agent int) (int, error) {
	order, err := q.orderOf(t)
	if err != nil {
		return -1, err
	}
	for ; p < q.tallies[t].n; p++ {
		e := entryAt(order, p)
		if e.at < q.since {
			return -1, nil
		}
		if q.kept[t][e.agent] && !q.skip[t][p] && (agent < 0 || e.agent == agent) {
			return p, nil
		}
	}
	return -1, nil
}

// newest is the newest limit entries (0: all), newest first: the tallies'
// orders merged. A tally's order is read only once its newest entry may
// be next: until then its head's newest time stands for it.
func (q *logRead) newest(limit int) ([]Ref, error) {
	cur := make([]cursor, len(q.tallies))
	for t, lt := range q.tallies {
		cur[t].p = -1
		if lt.n > 0 && lt.newest >= q.since {
			cur[t] = cursor{p: 0, at: lt.newest}
		}
	}
	out := []Ref{}
	for limit <= 0 || len(out) < limit {
		best, r, err := q.pick(cur)
		if err != nil || best < 0 {
			return out, err
		}
		out = append(out, r)
		if err := q.advance(cur, best, cur[best].p+1); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// cursor is where a merge of orders is in one tally: the place of its next
// entry (-1 when done), and that entry's time; unread, the tally's newest
// time, which no entry of it passes.
type cursor struct {
	p    int
	at   int64
	read bool
}

// advance moves tally t's cursor to its first entry shown at or after p.
func (q *logRead) advance(cur []cursor, t, p int) error {
	p, err := q.next(t, p, -1)
	if err != nil {
		return err
	}
	cur[t] = cursor{p: p, read: true}
	if p >= 0 {
		cur[t].at = entryAt(q.orders[t], p).at
	}
	return nil
}

// pick is the tally whose next entry is the newest (-1 when all are done),
// and that entry: by time, and among those of the newest time by ID, for
// which only they are opened.
func (q *logRead) pick(cur []cursor) (int, Ref, error) {
	for {
		best := -1
		for t, c := range cur {
			if c.p >= 0 && (best < 0 || c.at > cur[best].at) {
				best = t
			}
		}
		if best < 0 {
			return -1, Ref{}, nil
		}
		unread := false
		for t, c := range cur {
			if c.p >= 0 && !c.read && c.at >= cur[best].at {
				if err := q.advance(cur, t, c.p); err != nil {
					return -1, Ref{}, err
				}
				unread = true
			}
		}
		if !unread {
			return q.newestOf(cur, best)
		}
	}
}

// newestOf is, of the tallies whose next entries are of best's time, the
// one whose entry comes first by ID, and that entry.
func (q *logRead) newestOf(cur []cursor, best int) (int, Ref, error) {
	bestRef, err := q.ref(best, cur[best].p)
	if err != nil {
		return -1, Ref{}, err
	}
	for t := best + 1; t < len(cur); t++ {
		if cur[t].p < 0 || cur[t].at != cur[best].at {
			continue
		}
		r, err := q.ref(t, cur[t].p)
		if err != nil {
			return -1, Ref{}, err
		}
		if NewestFirst(r, bestRef) < 0 {
			best, bestRef = t, r
		}
	}
	return best, bestRef, nil
}

// latest is each kept agent's newest entry since then.
func (q *logRead) latest() (map[string]Ref, error) {
	of := map[string][]holder{}
	for t, lt := range q.tallies {
		for a, name := range lt.agents {
			if q.kept[t][a] && lt.firstAt[a] >= q.since {
				of[name] = append(of[name], holder{t, a})
			}
		}
	}
	out := map[string]Ref{}
	for name, hs := range of {
		r, ok, err := q.latestOf(hs)
		if err != nil {
			return nil, err
		}
		if ok {
			out[name] = r
		}
	}
	return out, nil
}

// holder is an agent of a tally: its index there.
type holder struct{ t, a int }

// latestOf is an agent's newest entry of the tallies hs that hold its
// entries: newest first by their heads, the first whose entry no other's
// passes; only those are opened.
func (q *logRead) latestOf(hs []holder) (Ref, bool, error) {
	firstAt := func(h holder) int64 { return q.tallies[h.t].firstAt[h.a] }
	slices.SortFunc(hs, func(x, y holder) int { return cmp.Compare(firstAt(y), firstAt(x)) })
	var best Ref
	found := false
	for _, h := range hs {
		if found && firstAt(h) < best.at {
			break // no entry of it is as new
		}
		p, err := q.firstOf(h.t, h.a)
		if err != nil || p < 0 {
			if err != nil {
				return Ref{}, false, err
			}
			continue
		}
		r, err := q.ref(h.t, p)
		if err != nil {
			return Ref{}, false, err
		}
		if !found || NewestFirst(r, best) < 0 {
			best, found = r, true
		}
	}
	return best, found, nil
}

// firstOf is the place of agent a's newest entry shown in tally t, -1 for
// none: from the head, unless another shard replaced it or it may be
// older than since.
func (q *logRead) firstOf(t, a int) (int, error) {
	lt := q.tallies[t]
	if p := lt.first[a]; !q.skip[t][p] && q.since <= lt.oldest {
		return p, nil
	}
	return q.next(t, lt.first[a], a)
}
