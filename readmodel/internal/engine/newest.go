package engine

import (
	"encoding/binary"
	"fmt"
	"path/filepath"
)

// newestByAgent is each agent's newest current row in seg (by
// NewestFirst): no tombstone, and no version a row of seg supersedes (an
// agent retracts or edits its entries on its own branch, so the rows that
// replace one are in its segment). Finding it takes a pass over every row,
// so it is kept in a file named by seg's tree: a directory that did not
// change since is answered from there, one that did (an agent wrote) costs
// a pass over its own rows once.
func (rd *Store) newestByAgent(seg *Segment) []Ref {
	file := filepath.Join(rd.viewDir("newest", seg.path), fmt.Sprintf("%s.%d.view", seg.tree, newestVersion))
	if refs, err := readNewest(file, seg); err == nil {
		return refs
	}
	replaced := map[uint64]bool{}
	for i := range seg.Len() {
		if old := seg.rowSupersedes(i); old != 0 {
			replaced[old] = true
		}
	}
	best := map[uint16]Ref{}
	for i := range seg.Len() {
		r := RefAt(seg, i)
		if r.flags&flagTombstone != 0 || replaced[r.id] {
			continue
		}
		if cur, ok := best[r.agentIndex]; !ok || NewestFirst(r, cur) < 0 {
			best[r.agentIndex] = r
		}
	}
	refs := make([]Ref, 0, len(best))
	b := make([]byte, 0, 4*len(best))
	for i := range seg.Len() { // in row order: the file is the same whoever writes it
		if r, ok := best[seg.rowAgent(i)]; ok && int(r.i) == i {
			refs = append(refs, r)
			b = binary.LittleEndian.AppendUint32(b, uint32(i))
		}
	}
	KeepView(file, b, keepPerShard)
	return refs
}

// newestVersion numbers what a file of newest rows holds; a file of
// another is never read. 2: current rows only.
const newestVersion = 2

// readNewest reads the rows kept in file for seg: one per agent, each in
// seg. Anything else is an error, and the rows are found again.
func readNewest(file string, seg *Segment) ([]Ref, error) {
	data, err := ReadView(file)
	if err != nil {
		return nil, err
	}
	if len(data)%4 != 0 {
		return nil, fmt.Errorf("%w: %s has the wrong length", ErrDamagedView, file)
	}
	refs := make([]Ref, 0, len(data)/4)
	agents := map[uint16]bool{}
	for at := 0; at < len(data); at += 4 {
		i := int(binary.LittleEndian.Uint32(data[at:]))
		if i >= seg.Len() || agents[seg.rowAgent(i)] {
			return nil, fmt.Errorf("%w: %s names rows its segment lacks", ErrDamagedView, file)
		}
		agents[seg.rowAgent(i)] = true
		refs = append(refs, RefAt(seg, i))
	}
	return refs, nil
}
