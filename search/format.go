package search

import (
	"encoding/binary"
	"errors"
	"hash/crc32"
	"sort"
	"strings"
	"sync"
)

// An index is stored as bytes that a query reads a little of: the head
// (counts, facets, and where each block of the term dictionary lies), then
// only the dictionary blocks and postings of the query's terms. All integers are little-endian; "uv" is a uvarint, a string is a
// uv length and its bytes.
//
//	head      u32 head length, u32 CRC-32C of the rest of the head,
//	          u32 documents, u32 terms, u32 dictionary length, u32 postings length,
//	          u64 total length of each field (3),
//	          the domain, type and classification tables (uv count, strings),
//	          per document: u16 length of each field (3), u16 domain,
//	          u8 type, u8 classification,
//	          uv block count, per block: its first term, u32 offset, u32
//	          length and u32 CRC-32C
//	dict      blocks of up to blockTerms entries, each: term, uv document
//	          frequency, uv last document, uv postings offset, uv postings
//	          length, u32 CRC-32C of the postings
//	postings  per term, per document holding it (ascending): uv document
//	          (the first absolute, then the gap from the one before), uv
//	          count of the term in each field (3)
//
// Every part is checked against its checksum before it is used, so a
// damaged index is an error (ErrDamaged), never a wrong answer.
const (
	fixedHead  = 6*4 + int(numFields)*8
	perDocSize = int(numFields)*2 + 4
	blockTerms = 64
	// maxDocs bounds the documents of one index, and so what a damaged
	// head can make a reader allocate.
	maxDocs = 1 << 24
)

// ErrDamaged is the error of an index whose bytes do not hold together:
// cut short, overwritten, or not an index at all. Its owner builds it again.
var ErrDamaged = errors.New("search index is damaged")

// castagnoli is the CRC-32C table, made on first use: every command
// would pay for building it at start.
var castagnoli = sync.OnceValue(func() *crc32.Table { return crc32.MakeTable(crc32.Castagnoli) })

// Index is an opened index. A query decodes its head's tables, and of its
// dictionary and postings only what its terms need.
type Index struct {
	data    []byte
	docs    int
	terms   int
	dictAt  int64
	postAt  int64
	size    int64
	totals  [numFields]uint64
	domains []string
	types   []string
	classes []string
	perDoc  []byte
	blocks  []block
}

// block is where one block of the dictionary lies, and its first term.
type block struct {
	first     string
	off, size uint32
	crc       uint32
}

// entry is one term of the dictionary.
type entry struct {
	term      string
	df, last  uint64
	off, size uint64
	crc       uint32
}

// OpenIndex opens the index stored in data, which it keeps: data must not
// change while the index is in use.
func OpenIndex(data []byte) (*Index, error) {
	if len(data) < fixedHead {
		return nil, ErrDamaged
	}
	headLen := int64(binary.LittleEndian.Uint32(data))
	if headLen < int64(fixedHead) || headLen > int64(len(data)) {
		return nil, ErrDamaged
	}
	head := data[:headLen]
	if crc32.Checksum(head[8:], castagnoli()) != binary.LittleEndian.Uint32(head[4:]) {
		return nil, ErrDamaged
	}
	ix, err := parseHead(head, int64(len(data)))
	if err != nil {
		return nil, err
	}
	ix.data = data
	return ix, nil
}

func parseHead(head []byte, size int64) (*Index, error) {
	le := binary.LittleEndian
	ix := &Index{docs: int(le.Uint32(head[8:])), terms: int(le.Uint32(head[12:])), size: size}
	dictLen, postLen := int64(le.Uint32(head[16:])), int64(le.Uint32(head[20:]))
	for f := range numFields {
		ix.totals[f] = le.Uint64(head[24+8*f:])
	}
	ix.dictAt = int64(len(head))
	ix.postAt = ix.dictAt + dictLen
	if ix.docs > maxDocs || ix.postAt+postLen != size { // no byte beyond what the checksums cover
		return nil, ErrDamaged
	}
	d := decoder{b: head[fixedHead:]}
	ix.domains, ix.types, ix.classes = d.strs(), d.strs(), d.strs()
	ix.perDoc = d.bytes(uint64(ix.docs) * uint64(perDocSize))
	n := d.uv()
	if n > uint64(len(d.b)) {
		return nil, ErrDamaged
	}
	ix.blocks = make([]block, 0, n)
	for range n {
		bl := block{first: d.str(), off: d.u32(), size: d.u32(), crc: d.u32()}
		if int64(bl.off)+int64(bl.size) > dictLen {
			d.fail()
		}
		ix.blocks = append(ix.blocks, bl)
	}
	if d.err != nil || len(d.b) != 0 {
		return nil, ErrDamaged
	}
	for i := range ix.docs {
		at := ix.perDoc[i*perDocSize:]
		if int(le.Uint16(at[6:])) >= len(ix.domains) || int(at[8]) >= len(ix.types) || int(at[9]) >= len(ix.classes) {
			return nil, ErrDamaged
		}
	}
	return ix, nil
}

// Len is the number of documents in the index.
func (ix *Index) Len() int { return ix.docs }

// lengths are document doc's field lengths, in terms.
func (ix *Index) lengths(doc int) [numFields]uint16 {
	at := ix.perDoc[doc*perDocSize:]
	var out [numFields]uint16
	for f := range numFields {
		out[f] = binary.LittleEndian.Uint16(at[2*f:])
	}
	return out
}

// Domain is document doc's domain, "" for none.
func (ix *Index) Domain(doc int) string {
	return ix.domains[binary.LittleEndian.Uint16(ix.perDoc[doc*perDocSize+6:])]
}

// docType is document doc's type.
func (ix *Index) docType(doc int) string { return ix.types[ix.perDoc[doc*perDocSize+8]] }

// Classification is document doc's classification, "" for none.
func (ix *Index) Classification(doc int) string { return ix.classes[ix.perDoc[doc*perDocSize+9]] }

// reading is one query's reads of one index: the blocks it decoded, kept
// for its other terms.
type reading struct {
	ix     *Index
	blocks map[int][]entry
}

func (ix *Index) reading() *reading {
	return &reading{ix: ix, blocks: map[int][]entry{}}
}

// section is n bytes of the index from off, or ErrDamaged past its end.
func (ix *Index) section(off int64, n uint64) ([]byte, error) {
	if off < 0 || off > int64(len(ix.data)) || n > uint64(int64(len(ix.data))-off) {
		return nil, ErrDamaged
	}
	return ix.data[off : off+int64(n)], nil
}

// block decodes block i of the dictionary.
func (r *reading) block(i int) ([]entry, error) {
	if es, ok := r.blocks[i]; ok {
		return es, nil
	}
	bl := r.ix.blocks[i]
	buf, err := r.ix.section(r.ix.dictAt+int64(bl.off), uint64(bl.size))
	if err != nil {
		return nil, err
	}
	if crc32.Checksum(buf, castagnoli()) != bl.crc {
		return nil, ErrDamaged
	}
	es, err := decodeBlock(buf)
	if err != nil {
		return nil, err
	}
	r.blocks[i] = es
	return es, nil
}

func decodeBlock(buf []byte) ([]entry, error) {
	d := decoder{b: buf}
	var es []entry
	for len(d.b) > 0 && d.err == nil {
		es = append(es, entry{term: d.str(), df: d.uv(), last: d.uv(), off: d.uv(), size: d.uv(), crc: d.u32()})
	}
	if d.err != nil || len(es) == 0 {
		return nil, ErrDamaged
	}
	return es, nil
}

// blockOf is the block that would hold term: the last whose first term is
// not after it.
func (ix *Index) blockOf(term string) int {
	return sort.Search(len(ix.blocks), func(i int) bool { return ix.blocks[i].first > term }) - 1
}

// lookup finds term in the dictionary.
func (r *reading) lookup(term string) (entry, bool, error) {
	i := r.ix.blockOf(term)
	if i < 0 {
		return entry{}, false, nil
	}
	es, err := r.block(i)
	if err != nil {
		return entry{}, false, err
	}
	j := sort.Search(len(es), func(j int) bool { return es[j].term >= term })
	if j < len(es) && es[j].term == term {
		return es[j], true, nil
	}
	return entry{}, false, nil
}

// withPrefix lists the first terms, at most limit, that start with prefix.
func (r *reading) withPrefix(prefix string, limit int) ([]string, error) {
	var out []string
	for i := max(r.ix.blockOf(prefix), 0); i < len(r.ix.blocks) && len(out) < limit; i++ {
		es, err := r.block(i)
		if err != nil {
			return nil, err
		}
		for _, e := range es {
			if e.term < prefix {
				continue
			}
			if !strings.HasPrefix(e.term, prefix) || len(out) == limit {
				return out, nil
			}
			out = append(out, e.term)
		}
	}
	return out, nil
}

// postings are the postings of e, checked.
func (r *reading) postings(e entry) (termPostings, error) {
	buf, err := r.raw(e)
	if err == nil {
		err = checkPostings(buf, e.df, r.ix.docs)
	}
	if err != nil {
		return termPostings{}, err
	}
	return termPostings{buf: buf, df: e.df}, nil
}

// termPostings are one term's postings in one index, as stored.
type termPostings struct {
	buf []byte
	df  uint64
}

// each calls fn with each document and its counts of the term, in order.
// The postings must have passed checkPostings.
func (ps termPostings) each(fn func(doc int, tf [numFields]uint16)) {
	b := ps.buf
	doc := uint64(0)
	for i := range ps.df {
		gap, n := binary.Uvarint(b)
		b = b[n:]
		if i == 0 {
			doc = gap
		} else {
			doc += gap
		}
		var tf [numFields]uint16
		for f := range numFields {
			v, n := binary.Uvarint(b)
			b = b[n:]
			tf[f] = uint16(min(v, 65535))
		}
		fn(int(doc), tf)
	}
}

// checkPostings holds postings to what each reads from them: df documents
// in rising order, each below docs, and nothing after them.
func checkPostings(buf []byte, df uint64, docs int) error {
	if df == 0 || df > uint64(docs) {
		return ErrDamaged
	}
	d := decoder{b: buf}
	var doc uint64
	for i := range df {
		gap := d.uv()
		if i > 0 && gap == 0 {
			d.fail()
		}
		doc += gap
		for range numFields {
			d.uv()
		}
		if d.err != nil || doc >= uint64(docs) {
			return ErrDamaged
		}
	}
	if len(d.b) != 0 {
		return ErrDamaged
	}
	return nil
}

// decoder reads what the encoder wrote; the first thing out of place makes
// err ErrDamaged and every later read a zero value.
type decoder struct {
	b   []byte
	err error
}

func (d *decoder) fail() {
	d.err = ErrDamaged
	d.b = nil
}

func (d *decoder) uv() uint64 {
	v, n := binary.Uvarint(d.b)
	if n <= 0 {
		d.fail()
		return 0
	}
	d.b = d.b[n:]
	return v
}

func (d *decoder) u32() uint32 {
	if len(d.b) < 4 {
		d.fail()
		return 0
	}
	v := binary.LittleEndian.Uint32(d.b)
	d.b = d.b[4:]
	return v
}

func (d *decoder) bytes(n uint64) []byte {
	if n > uint64(len(d.b)) {
		d.fail()
		return nil
	}
	out := d.b[:n]
	d.b = d.b[n:]
	return out
}

func (d *decoder) str() string { return string(d.bytes(d.uv())) }

func (d *decoder) strs() []string {
	n := d.uv()
	if n > uint64(len(d.b)) {
		d.fail()
		return nil
	}
	out := make([]string, n)
	for i := range out {
		out[i] = d.str()
	}
	return out
}
