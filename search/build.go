package search

import (
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"slices"
	"strings"
)

// Indexed is one document as an index holds it: its terms with their
// counts by field, its field lengths and its facets. A document taken from
// an index is added to the next one without being read or tokenized again.
type Indexed struct {
	terms   []termCount
	lengths [numFields]uint16
	facets  [3]string // domain, type, classification
}

type termCount struct {
	term string
	tf   [numFields]uint16
}

// Index tokenizes d.
func (d Doc) Index() Indexed {
	out := Indexed{facets: [3]string{d.Domain, string(d.Type), string(d.Classification)}}
	at := map[string]int{}
	for f := range numFields {
		terms := Terms(d.text[f])
		out.lengths[f] = uint16(min(len(terms), 65535))
		for _, t := range terms {
			i, ok := at[t]
			if !ok {
				i = len(out.terms)
				at[t] = i
				out.terms = append(out.terms, termCount{term: t})
			}
			if out.terms[i].tf[f] < 65535 {
				out.terms[i].tf[f]++
			}
		}
	}
	return out
}

// posting is one document's counts of one term, by field, as Encode
// gathers them.
type posting struct {
	doc uint32
	tf  [numFields]uint16
}

// Encode lays out docs as an index, document i being docs[i].
func Encode(docs []Indexed) []byte {
	var w writer
	byTerm := map[string][]posting{}
	for i, d := range docs {
		w.addDoc(d.lengths, d.facets)
		for _, t := range d.terms {
			byTerm[t.term] = append(byTerm[t.term], posting{doc: uint32(i), tf: t.tf})
		}
	}
	terms := make([]string, 0, len(byTerm))
	for t := range byTerm {
		terms = append(terms, t)
	}
	slices.Sort(terms)
	for _, t := range terms {
		ps := byTerm[t]
		w.addTerm(t, uint64(len(ps)), uint64(ps[len(ps)-1].doc), appendPostings(nil, ps, 0))
	}
	return w.bytes()
}

func appendPostings(b []byte, ps []posting, prev uint32) []byte {
	for i, p := range ps {
		gap := p.doc - prev
		if i == 0 {
			gap = p.doc
		}
		b = binary.AppendUvarint(b, uint64(gap))
		for _, tf := range p.tf {
			b = binary.AppendUvarint(b, uint64(tf))
		}
		prev = p.doc
	}
	return b
}

// Merge lays out the documents of several indexes, one after the other, as
// one index: what Encode would make of all their documents, without reading
// any of them again. Postings are copied as they are, but for each list's
// first document.
func Merge(parts [][]byte) ([]byte, error) {
	var w writer
	cursors := make([]*mergeCursor, len(parts))
	offset := uint32(0)
	for i, p := range parts {
		c, err := openCursor(p, offset)
		if err != nil {
			return nil, err
		}
		for d := range c.ix.docs {
			w.addDoc(c.ix.lengths(d), [3]string{c.ix.Domain(d), c.ix.docType(d), c.ix.Classification(d)})
		}
		offset += uint32(c.ix.docs)
		cursors[i] = c
	}
	var list []byte
	for {
		term, found := nextTerm(cursors)
		if !found {
			return w.bytes(), nil
		}
		var df, last uint64
		var err error
		if list, df, last, err = mergeTerm(cursors, term, list[:0]); err != nil {
			return nil, err
		}
		w.addTerm(term, df, last, list)
	}
}

// mergeCursor is one index of a Merge, its terms not merged yet, and the
// number its documents start at in the merged index.
type mergeCursor struct {
	ix      *Index
	r       *reading
	entries []entry
	offset  uint32
}

// openCursor opens the index p, every term of it, its documents numbered
// from offset.
func openCursor(p []byte, offset uint32) (*mergeCursor, error) {
	ix, err := OpenIndex(p)
	if err != nil {
		return nil, err
	}
	c := &mergeCursor{ix: ix, r: ix.reading(), offset: offset}
	for b := range ix.blocks {
		es, err := c.r.block(b)
		if err != nil {
			return nil, err
		}
		c.entries = append(c.entries, es...)
	}
	if len(c.entries) != ix.terms || !slices.IsSortedFunc(c.entries, func(a, b entry) int { return strings.Compare(a.term, b.term) }) {
		return nil, ErrDamaged
	}
	return c, nil
}

// nextTerm is the least term of the cursors; false when none is left.
func nextTerm(cursors []*mergeCursor) (string, bool) {
	term, found := "", false
	for _, c := range cursors {
		if len(c.entries) > 0 && (!found || c.entries[0].term < term) {
			term, found = c.entries[0].term, true
		}
	}
	return term, found
}

// mergeTerm takes term from the cursors that have it next and appends to
// list its postings, one part after the other: its document frequency and
// last document in all.
func mergeTerm(cursors []*mergeCursor, term string, list []byte) ([]byte, uint64, uint64, error) {
	var df, last uint64
	for _, c := range cursors {
		if len(c.entries) == 0 || c.entries[0].term != term {
			continue
		}
		e := c.entries[0]
		c.entries = c.entries[1:]
		buf, err := c.r.raw(e)
		if err != nil {
			return nil, 0, 0, err
		}
		first, n := binary.Uvarint(buf)
		if n <= 0 {
			return nil, 0, 0, ErrDamaged
		}
		first += uint64(c.offset)
		if df > 0 {
			first -= last // a gap from the last document of the parts before
		}
		list = binary.AppendUvarint(list, first)
		list = append(list, buf[n:]...)
		df += e.df
		last = e.last + uint64(c.offset)
	}
	return list, df, last, nil
}

// raw is the postings of e as they are stored, checked.
func (r *reading) raw(e entry) ([]byte, error) {
	if e.off > uint64(r.ix.size) {
		return nil, ErrDamaged
	}
	buf, err := r.ix.section(r.ix.postAt+int64(e.off), e.size)
	if err != nil {
		return nil, err
	}
	if crc32.Checksum(buf, castagnoli()) != e.crc || e.df == 0 || e.last >= uint64(r.ix.docs) {
		return nil, ErrDamaged
	}
	return buf, nil
}

// Docs are the documents of the index stored in data, for Encode to take
// into another index.
func Docs(data []byte) ([]Indexed, error) {
	ix, err := OpenIndex(data)
	if err != nil {
		return nil, err
	}
	out := make([]Indexed, ix.docs)
	for d := range out {
		out[d] = Indexed{lengths: ix.lengths(d), facets: [3]string{ix.Domain(d), ix.docType(d), ix.Classification(d)}}
	}
	r := ix.reading()
	for b := range ix.blocks {
		es, err := r.block(b)
		if err != nil {
			return nil, err
		}
		for _, e := range es {
			ps, err := r.postings(e)
			if err != nil {
				return nil, err
			}
			ps.each(func(doc int, tf [numFields]uint16) {
				out[doc].terms = append(out[doc].terms, termCount{term: e.term, tf: tf})
			})
		}
	}
	return out, nil
}

// writer lays out an index: documents first, then terms in order.
type writer struct {
	docs    int
	totals  [numFields]uint64
	tables  [3][]string
	indexOf [3]map[string]int
	perDoc  []byte
	terms   int
	dict    []byte
	blocks  []block
	inBlock int
	post    []byte
}

func (w *writer) addDoc(lengths [numFields]uint16, facets [3]string) {
	w.docs++
	for f, n := range lengths {
		w.totals[f] += uint64(n)
		w.perDoc = binary.LittleEndian.AppendUint16(w.perDoc, n)
	}
	var idx [3]int
	for t, v := range facets {
		if w.indexOf[t] == nil {
			w.indexOf[t] = map[string]int{}
		}
		i, ok := w.indexOf[t][v]
		if !ok {
			i = len(w.tables[t])
			w.indexOf[t][v] = i
			w.tables[t] = append(w.tables[t], v)
		}
		idx[t] = i
	}
	// A facet past its table's bound reads as the table's last value: one
	// kind's directory with 65,535 domains is a corpus no filter was made for.
	w.perDoc = binary.LittleEndian.AppendUint16(w.perDoc, uint16(min(idx[0], 0xffff)))
	w.perDoc = append(w.perDoc, uint8(min(idx[1], 0xff)), uint8(min(idx[2], 0xff)))
}

func (w *writer) addTerm(term string, df, last uint64, postings []byte) {
	if w.inBlock == 0 || w.inBlock == blockTerms {
		w.closeBlock()
		w.blocks = append(w.blocks, block{first: term, off: uint32(len(w.dict))})
		w.inBlock = 0
	}
	w.inBlock++
	w.terms++
	w.dict = appendString(w.dict, term)
	w.dict = binary.AppendUvarint(w.dict, df)
	w.dict = binary.AppendUvarint(w.dict, last)
	w.dict = binary.AppendUvarint(w.dict, uint64(len(w.post)))
	w.dict = binary.AppendUvarint(w.dict, uint64(len(postings)))
	w.dict = binary.LittleEndian.AppendUint32(w.dict, crc32.Checksum(postings, castagnoli()))
	w.post = append(w.post, postings...)
}

func (w *writer) closeBlock() {
	if n := len(w.blocks); n > 0 {
		bl := &w.blocks[n-1]
		bl.size = uint32(len(w.dict)) - bl.off
		bl.crc = crc32.Checksum(w.dict[bl.off:], castagnoli())
	}
}

func (w *writer) bytes() []byte {
	w.closeBlock()
	le := binary.LittleEndian
	head := make([]byte, fixedHead, fixedHead+len(w.perDoc)+64*len(w.blocks))
	le.PutUint32(head[8:], uint32(w.docs))
	le.PutUint32(head[12:], uint32(w.terms))
	le.PutUint32(head[16:], uint32(len(w.dict)))
	le.PutUint32(head[20:], uint32(len(w.post)))
	for f, n := range w.totals {
		le.PutUint64(head[24+8*f:], n)
	}
	for _, t := range w.tables {
		head = binary.AppendUvarint(head, uint64(len(t)))
		for _, s := range t {
			head = appendString(head, s)
		}
	}
	head = append(head, w.perDoc...)
	head = binary.AppendUvarint(head, uint64(len(w.blocks)))
	for _, bl := range w.blocks {
		head = appendString(head, bl.first)
		head = le.AppendUint32(head, bl.off)
		head = le.AppendUint32(head, bl.size)
		head = le.AppendUint32(head, bl.crc)
	}
	le.PutUint32(head, uint32(len(head)))
	le.PutUint32(head[4:], crc32.Checksum(head[8:], castagnoli()))
	out := make([]byte, 0, len(head)+len(w.dict)+len(w.post))
	return append(append(append(out, head...), w.dict...), w.post...)
}

func appendString(b []byte, s string) []byte {
	return append(binary.AppendUvarint(b, uint64(len(s))), s...)
}

// Check reads the whole index stored in data, as Merge would, and says
// whether it holds together and has docs documents.
func Check(data []byte, docs int) error {
	ix, err := OpenIndex(data)
	if err != nil {
		return err
	}
	if ix.docs != docs {
		return fmt.Errorf("index of %d documents, not %d: %w", ix.docs, docs, ErrDamaged)
	}
	r := ix.reading()
	for b := range ix.blocks {
		es, err := r.block(b)
		if err != nil {
			return err
		}
		for _, e := range es {
			if _, err := r.raw(e); err != nil {
				return err
			}
		}
	}
	return nil
}
