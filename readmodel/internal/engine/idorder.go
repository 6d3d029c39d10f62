package engine

import (
	"cmp"
	"encoding/binary"
	"fmt"
	"path/filepath"
	"slices"
)

// idOrder is seg's rows in the order of their ID hashes, with what a
// count of them needs, and the rows that supersede another. With it, the
// records of several branches are told apart by merging sorted lists
// instead of filling a set of every ID, and without touching the rows: a
// count over 50,000 records is a walk, not 50,000 map inserts. Sorting takes
// a pass over the segment, so the order is kept in a file named by seg's
// tree, made once per tree.
type idOrder struct {
	ids  []uint64 // ascending
	rows []idRow  // rows[k] is the row of ids[k]
	// superseding are the rows that supersede another, in row order.
	superseding []uint32
}

// edges are the rows of seg, whose order o is, that supersede another.
func (o idOrder) edges(seg *Segment) []versionEdge {
	out := make([]versionEdge, len(o.superseding))
	for k, i := range o.superseding {
		out[k] = rowEdge(seg, int(i))
	}
	return out
}

// idRow is what a count reads of a row.
type idRow struct {
	at    int64
	i     uint32
	agent uint16
	kind  uint8
	flags uint8
}

// An ID order's file: its version, then per row its ID hash, time, row,
// agent, kind and flags; the count of rows that supersede another, and
// those.
const (
	idOrderVersion = 2
	idEntrySize    = 24
)

func (rd *Store) idOrder(seg *Segment) idOrder {
	file := filepath.Join(rd.viewDir("byid", seg.path), seg.tree.String()+".view")
	if order, err := readIDOrder(file, seg); err == nil {
		return order
	}
	n := seg.Len()
	order := idOrder{ids: make([]uint64, n), rows: make([]idRow, n)}
	perm := make([]uint32, n)
	for i := range perm {
		perm[i] = uint32(i)
		if seg.rowSupersedes(i) != 0 {
			order.superseding = append(order.superseding, uint32(i))
		}
	}
	slices.SortStableFunc(perm, func(a, b uint32) int { return cmp.Compare(seg.RowID(int(a)), seg.RowID(int(b))) })
	b := make([]byte, 0, 4+idEntrySize*n+4+4*len(order.superseding))
	b = binary.LittleEndian.AppendUint32(b, idOrderVersion)
	for k, i := range perm {
		r := seg.row(int(i))
		order.ids[k], order.rows[k] = r.id, idRow{at: r.at, i: i, agent: r.agent, kind: r.kind, flags: r.flags}
		b = binary.LittleEndian.AppendUint64(b, r.id)
		b = binary.LittleEndian.AppendUint64(b, uint64(r.at))
		b = binary.LittleEndian.AppendUint32(b, i)
		b = binary.LittleEndian.AppendUint16(b, r.agent)
		b = append(b, r.kind, r.flags)
	}
	b = binary.LittleEndian.AppendUint32(b, uint32(len(order.superseding)))
	for _, i := range order.superseding {
		b = binary.LittleEndian.AppendUint32(b, i)
	}
	KeepView(file, b, keepPerShard)
	return order
}

// readIDOrder reads the order kept in file for seg: each of its rows once,
// by ID, then what they supersede. Anything else is an error, and the rows
// are sorted again.
func readIDOrder(file string, seg *Segment) (idOrder, error) {
	data, err := ReadView(file)
	if err != nil {
		return idOrder{}, err
	}
	n := seg.Len()
	end := 4 + idEntrySize*n + 4
	if len(data) < end {
		return idOrder{}, fmt.Errorf("%w: %s is cut short", ErrDamagedView, file)
	}
	if v := binary.LittleEndian.Uint32(data); v != idOrderVersion {
		return idOrder{}, fmt.Errorf("%w: %s is of version %d", ErrDamagedView, file, v)
	}
	m := int(binary.LittleEndian.Uint32(data[end-4:]))
	if len(data) != end+4*m {
		return idOrder{}, fmt.Errorf("%w: %s has the wrong length", ErrDamagedView, file)
	}
	order := idOrder{ids: make([]uint64, n), rows: make([]idRow, n), superseding: make([]uint32, m)}
	seen := make([]bool, n)
	for k := range n {
		e := data[4+idEntrySize*k:]
		id, i := binary.LittleEndian.Uint64(e), binary.LittleEndian.Uint32(e[16:])
		if int(i) >= n || seen[i] || (k > 0 && id < order.ids[k-1]) {
			return idOrder{}, fmt.Errorf("%w: %s is not an order of its segment's rows", ErrDamagedView, file)
		}
		seen[i], order.ids[k] = true, id
		order.rows[k] = idRow{at: int64(binary.LittleEndian.Uint64(e[8:])), i: i, agent: binary.LittleEndian.Uint16(e[20:]), kind: e[22], flags: e[23]}
	}
	for k := range order.superseding {
		i := binary.LittleEndian.Uint32(data[end+4*k:])
		if int(i) >= n || seg.rowSupersedes(int(i)) == 0 || (k > 0 && i <= order.superseding[k-1]) {
			return idOrder{}, fmt.Errorf("%w: %s names rows that supersede nothing", ErrDamagedView, file)
		}
		order.superseding[k] = i
	}
	return order, nil
}

// eachDistinct calls fn once per record ID of the orders, with the ID and
// the row of the first that holds it (as rows keeps the first copy it meets) and that
// order's place in orders: the orders are merged.
func eachDistinct(orders []idOrder, fn func(k int, id uint64, r idRow)) {
	type cursor struct {
		k int
		idOrder
	}
	cursors := make([]*cursor, 0, len(orders))
	for k, o := range orders {
		if len(o.ids) > 0 {
			cursors = append(cursors, &cursor{k, o})
		}
	}
	for len(cursors) > 0 {
		// The few segments of one kind's directory on each branch: a scan
		// for the least ID costs less than a heap.
		least := 0
		for k := 1; k < len(cursors); k++ {
			if cursors[k].ids[0] < cursors[least].ids[0] {
				least = k
			}
		}
		next := cursors[least].ids[0]
		fn(cursors[least].k, next, cursors[least].rows[0])
		kept := cursors[:0]
		for _, c := range cursors {
			for len(c.ids) > 0 && c.ids[0] == next {
				c.ids, c.rows = c.ids[1:], c.rows[1:]
			}
			if len(c.ids) > 0 {
				kept = append(kept, c)
			}
		}
		cursors = kept
	}
}
