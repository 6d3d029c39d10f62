package engine

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"path/filepath"
	"slices"
)

// copies is what a search needs of the rows of one kind's directories on
// every branch, beside their indexes: in each segment, the rows whose
// record an earlier segment holds (a record on two branches counts once),
// what the rows supersede and retract, and the version shown of each ring
// of versions (see ringBreaks), which no row replaces. Finding them takes a pass over
// every row, so they are kept in a file named by the segments' trees: a
// search after an agent wrote passes over the rows of the kind it wrote,
// not of every kind.
type copies struct {
	shadow                     [][]bool // per segment, per row
	replaced, retracted, rings []uint64
}

// copiesVersion numbers the file's layout; a file of another is made again.
// 2: rings.
const copiesVersion = 2

func (rd *Store) copiesOf(path string, segs []*Segment) *copies {
	key := sha256.New()
	fmt.Fprintf(key, "copies %d, segments %d\n", copiesVersion, SegmentVersion)
	for _, s := range segs {
		fmt.Fprintf(key, "%s %s\n", s.path, s.tree)
	}
	file := filepath.Join(rd.viewDir("copies", path), hex.EncodeToString(key.Sum(nil)[:16])+".view")
	if c, err := readCopies(file, segs); err == nil {
		return c
	}
	c := &copies{shadow: make([][]bool, len(segs))}
	n := 0
	for _, s := range segs {
		n += s.Len()
	}
	seen := make(map[uint64]bool, n)
	var edges []versionEdge
	for k, s := range segs {
		c.shadow[k] = make([]bool, s.Len())
		for i := range s.Len() {
			id := s.RowID(i)
			c.shadow[k][i] = seen[id]
			seen[id] = true
			if old := s.rowSupersedes(i); old != 0 {
				edges = append(edges, rowEdge(s, i))
				if s.rowFlags(i)&flagTombstone != 0 {
					c.retracted = append(c.retracted, old)
				}
			}
		}
	}
	breaks := ringBreaks(edges)
	for _, e := range edges {
		if by, ok := breaks[e.old]; !ok || by != e.id {
			c.replaced = append(c.replaced, e.old)
		}
	}
	for id := range breaks {
		c.rings = append(c.rings, id)
	}
	slices.Sort(c.rings)
	KeepView(file, c.encode(), keepPerShard)
	return c
}

// A file of copies: its version and count of segments; per segment its
// count of rows and a bit per row (set: a copy); the counts of superseded,
// of retracted and of ring IDs, and those.
func (c *copies) encode() []byte {
	b := binary.LittleEndian.AppendUint32(nil, copiesVersion)
	b = binary.LittleEndian.AppendUint32(b, uint32(len(c.shadow)))
	for _, rows := range c.shadow {
		b = binary.LittleEndian.AppendUint32(b, uint32(len(rows)))
		bits := make([]byte, (len(rows)+7)/8)
		for i, copied := range rows {
			if copied {
				bits[i/8] |= 1 << (i % 8)
			}
		}
		b = append(b, bits...)
	}
	for _, list := range [][]uint64{c.replaced, c.retracted, c.rings} {
		b = binary.LittleEndian.AppendUint32(b, uint32(len(list)))
		for _, id := range list {
			b = binary.LittleEndian.AppendUint64(b, id)
		}
	}
	return b
}

// readCopies reads the copies kept in file for segs. A file that is
// damaged, of another version or not of segs' rows is an error, and the
// copies are found again.
func readCopies(file string, segs []*Segment) (*copies, error) {
	data, err := ReadView(file)
	if err != nil {
		return nil, err
	}
	v := &viewBytes{file: file, data: data}
	if n, err := v.word(); err != nil || n != copiesVersion {
		return nil, fmt.Errorf("%w: %s is of another version", ErrDamagedView, file)
	}
	if n, err := v.word(); err != nil || n != len(segs) {
		return nil, fmt.Errorf("%w: %s is of other segments", ErrDamagedView, file)
	}
	c := &copies{shadow: make([][]bool, len(segs))}
	for k, s := range segs {
		if c.shadow[k], err = v.bits(s.Len()); err != nil {
			return nil, err
		}
	}
	for _, list := range []*[]uint64{&c.replaced, &c.retracted, &c.rings} {
		if *list, err = v.ids(); err != nil {
			return nil, err
		}
	}
	if len(v.data) != 0 {
		return nil, fmt.Errorf("%w: %s is too long", ErrDamagedView, file)
	}
	return c, nil
}

// viewBytes is what is left to read of a view's file.
type viewBytes struct {
	file string
	data []byte
}

// next reads n bytes.
func (v *viewBytes) next(n int) ([]byte, error) {
	if n < 0 || n > len(v.data) {
		return nil, fmt.Errorf("%w: %s is cut short", ErrDamagedView, v.file)
	}
	b := v.data[:n]
	v.data = v.data[n:]
	return b, nil
}

// word reads a 32-bit number.
func (v *viewBytes) word() (int, error) {
	b, err := v.next(4)
	if err != nil {
		return 0, err
	}
	return int(binary.LittleEndian.Uint32(b)), nil
}

// bits reads a count, which must be want (a segment's rows), and as many
// bits.
func (v *viewBytes) bits(want int) ([]bool, error) {
	n, err := v.word()
	if err != nil || n != want {
		return nil, fmt.Errorf("%w: %s is of other segments", ErrDamagedView, v.file)
	}
	bits, err := v.next((n + 7) / 8)
	if err != nil {
		return nil, err
	}
	out := make([]bool, n)
	for i := range n {
		out[i] = bits[i/8]&(1<<(i%8)) != 0
	}
	return out, nil
}

// ids reads a count and as many IDs (hashed); nil for none.
func (v *viewBytes) ids() ([]uint64, error) {
	n, err := v.word()
	if err != nil {
		return nil, err
	}
	ids, err := v.next(8 * n)
	if err != nil {
		return nil, err
	}
	var out []uint64
	for i := range n {
		out = append(out, binary.LittleEndian.Uint64(ids[8*i:]))
	}
	return out, nil
}
