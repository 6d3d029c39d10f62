package readmodel

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"os"
	"path/filepath"
	"strconv"
)

// newestByAgent is each agent's newest row in seg (by newestFirst). Finding
// it takes a pass over every row, so it is kept in a file named by seg's
// tree: a directory that did not change since is answered from there, one
// that did (an agent wrote) costs a pass over its own rows once.
func (rd *Reader) newestByAgent(seg *segment) []ref {
	dir := filepath.Join(rd.cacheDir, "views", "newest", strconv.FormatUint(idHash(seg.path), 16))
	file := filepath.Join(dir, seg.tree.String()+".view")
	if refs, err := readNewest(file, seg); err == nil {
		return refs
	}
	best := map[uint16]ref{}
	for i := range seg.len() {
		r := refAt(seg, i)
		if cur, ok := best[r.agentIndex]; !ok || newestFirst(r, cur) < 0 {
			best[r.agentIndex] = r
		}
	}
	refs := make([]ref, 0, len(best))
	b := make([]byte, 0, 4*len(best)+4)
	for i := range seg.len() { // in row order: the file is the same whoever writes it
		if r, ok := best[seg.rowAgent(i)]; ok && int(r.i) == i {
			refs = append(refs, r)
			b = binary.LittleEndian.AppendUint32(b, uint32(i))
		}
	}
	b = binary.LittleEndian.AppendUint32(b, crc32.Checksum(b, castagnoli()))
	if err := writeCacheFile(file, b); err == nil {
		if entries, err := os.ReadDir(dir); err == nil && len(entries) > keepPerShard {
			pruneOldest(dir, entries, keepPerShard)
		}
	} // else: used from memory all the same
	return refs
}

var errNoNewest = errors.New("no newest rows")

// readNewest reads the rows kept in file for seg: one per agent, each in
// seg. Anything else is an error, and the rows are found again.
func readNewest(file string, seg *segment) ([]ref, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	if len(data) < 4 || len(data)%4 != 0 || crc32.Checksum(data[:len(data)-4], castagnoli()) != binary.LittleEndian.Uint32(data[len(data)-4:]) {
		return nil, fmt.Errorf("%w: %s is damaged", errNoNewest, file)
	}
	refs := make([]ref, 0, len(data)/4-1)
	agents := map[uint16]bool{}
	for at := 0; at < len(data)-4; at += 4 {
		i := int(binary.LittleEndian.Uint32(data[at:]))
		if i >= seg.len() || agents[seg.rowAgent(i)] {
			return nil, fmt.Errorf("%w: %s names rows its segment lacks", errNoNewest, file)
		}
		agents[seg.rowAgent(i)] = true
		refs = append(refs, refAt(seg, i))
	}
	return refs, nil
}
