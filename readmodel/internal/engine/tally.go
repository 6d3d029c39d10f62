package engine

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"hash/crc32"
	"path/filepath"
	"runtime"
	"slices"
	"sync"

	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/staterepo"
)

// A tally is what a view that counts or lists a kind across every branch
// (status, log --all) needs of one shard path (learnings/db, log/2026-05):
// the records of that shard on every branch merged, each once, as the
// first branch that holds it holds it (as Load and eachDistinct keep the
// first copy), with their counts and their order worked out. It is named
// by the shard's trees on those branches, so it is never stale, and a new
// record makes a new tally for its shard alone: a read of 50,000 records
// opens one tally per shard and counts from there, and after a write it
// merges the one shard written (see logtally.go, statustally.go).
//
// A record's path follows from its fields (changelog.Parse holds a file to
// changelog.RecordPath), so every copy of a record is in the same shard:
// merging each shard across branches merges the records. What crosses
// shards is a new version or a retraction in another shard than the
// record it replaces (an edit that moves a learning to another domain, a
// retraction written a month after its entry): each tally lists those
// edges, and the read applies them (crossShards). A ring of versions, which
// only a hand-made commit writes, is left to the readers that walk every
// record.
//
// A tally file is mapped, not read, and its sections are checked each
// when first read: the log's tally of a month holds every entry of it, and
// a log --all that shows 50 reads the newest month's.
//
//	magic, version, section count (u32 LE), per section its length and
//	CRC-32C (u32 LE), the CRC-32C of all that (u32 LE); the sections.
const tallyMagic = "planq-tally\n"

// tallyFile is a tally's sections, each checked on first read.
type tallyFile struct {
	secs    [][]byte
	sums    []uint32
	mu      sync.Mutex
	checked []bool
}

// encodeTally lays out secs as a tally file of version.
func encodeTally(version uint32, secs ...[]byte) []byte {
	b := []byte(tallyMagic)
	b = binary.LittleEndian.AppendUint32(b, version)
	b = binary.LittleEndian.AppendUint32(b, uint32(len(secs)))
	for _, s := range secs {
		b = binary.LittleEndian.AppendUint32(b, uint32(len(s)))
		b = binary.LittleEndian.AppendUint32(b, crc32.Checksum(s, castagnoli()))
	}
	b = binary.LittleEndian.AppendUint32(b, crc32.Checksum(b, castagnoli()))
	for _, s := range secs {
		b = append(b, s...)
	}
	return b
}

// parseTally reads a tally file's header, of version and n sections.
func parseTally(data []byte, version uint32, n int) (*tallyFile, error) {
	head := len(tallyMagic) + 8 + 8*n + 4
	if len(data) < head || string(data[:len(tallyMagic)]) != tallyMagic {
		return nil, fmt.Errorf("%w: no tally", ErrDamagedView)
	}
	le := binary.LittleEndian
	if v, k := le.Uint32(data[len(tallyMagic):]), le.Uint32(data[len(tallyMagic)+4:]); v != version || int(k) != n {
		return nil, fmt.Errorf("%w: a tally of version %d with %d sections", ErrDamagedView, v, k)
	}
	if crc32.Checksum(data[:head-4], castagnoli()) != le.Uint32(data[head-4:]) {
		return nil, fmt.Errorf("%w: a tally's header fails its checksum", ErrDamagedView)
	}
	f := &tallyFile{secs: make([][]byte, n), sums: make([]uint32, n), checked: make([]bool, n)}
	at := head
	for i := range n {
		size := int(le.Uint32(data[len(tallyMagic)+8+8*i:]))
		if size > len(data)-at {
			return nil, fmt.Errorf("%w: a tally cut short", ErrDamagedView)
		}
		f.secs[i], f.sums[i] = data[at:at+size:at+size], le.Uint32(data[len(tallyMagic)+12+8*i:])
		at += size
	}
	if at != len(data) {
		return nil, fmt.Errorf("%w: a tally of the wrong length", ErrDamagedView)
	}
	return f, nil
}

// section is section i once its checksum holds.
func (f *tallyFile) section(i int) ([]byte, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if !f.checked[i] {
		if crc32.Checksum(f.secs[i], castagnoli()) != f.sums[i] {
			return nil, fmt.Errorf("%w: a tally's section %d fails its checksum", ErrDamagedView, i)
		}
		f.checked[i] = true
	}
	return f.secs[i], nil
}

// shardGroup is one shard path as the distinct kind directories of some
// tips hold it: its distinct trees in the directories' order (the first
// that holds a record holds the copy read), and which directory each is
// first in.
type shardGroup struct {
	path   string
	shards []shard
	dirs   []int
}

// member is the index in g.shards of the tree directory k holds, -1 for
// none.
func (g shardGroup) member(k int) int { return slices.Index(g.dirs, k) }

// shardGroups lists the shard paths of the kinds' directories in the trees
// of tips, each with its trees; layout is, per distinct directory in order,
// its shards' groups in its order (how Load meets them); problems are the
// files there that are not where records live.
func (rd *Store) shardGroups(tips []staterepo.Hash, kinds []changelog.Kind) (groups []shardGroup, layout [][]int, problems []*changelog.ParseError, err error) {
	dirs, within, problems, err := rd.shardsWithin(tips, kinds)
	if err != nil {
		return nil, nil, nil, err
	}
	index := map[string]int{}
	seen := map[shard]bool{}
	layout = make([][]int, len(dirs))
	for k, dir := range dirs {
		for _, sh := range within[dir] {
			g, ok := index[sh.path]
			if !ok {
				g = len(groups)
				index[sh.path] = g
				groups = append(groups, shardGroup{path: sh.path})
			}
			layout[k] = append(layout[k], g)
			if seen[sh] {
				continue // a tree an earlier directory holds adds no record: a branch's unchanged shard
			}
			seen[sh] = true
			groups[g].shards = append(groups[g].shards, sh)
			groups[g].dirs = append(groups[g].dirs, k)
		}
	}
	return groups, layout, problems, nil
}

// tallyProblems is problems and then the problems of every shard (of
// groups, by probs: per group its shards' problems), in the order Load
// reports them: directory by directory, each shard in its directory's
// order; each once.
func tallyProblems(problems []*changelog.ParseError, groups []shardGroup, layout [][]int, probs [][][]*changelog.ParseError) []*changelog.ParseError {
	for k, gs := range layout {
		for _, g := range gs {
			if j := groups[g].member(k); j >= 0 { // else the tree of an earlier directory, whose problems came there
				problems = append(problems, probs[g][j]...)
			}
		}
	}
	return uniqueProblems(problems)
}

// tallyFileOf is where the tally of kind (a view's name) for g lives: named
// by its trees, the tally's version and the segments'.
func (rd *Store) tallyFileOf(kind string, version uint32, g shardGroup) string {
	key := sha256.New()
	fmt.Fprintf(key, "%s %d, segments %d\n%s\n", kind, version, SegmentVersion, g.path)
	for _, sh := range g.shards {
		key.Write(sh.tree[:])
	}
	return filepath.Join(rd.viewDir(kind, g.path), hex.EncodeToString(key.Sum(nil)[:16])+".view")
}

// tally reads the tally kept in file, of version and n sections, by read
// (its head, and what the kind reads up front): from memory, from the
// file, or built (and kept) when there is none that reads.
func (rd *Store) tally(file string, version uint32, n int, build func() ([]byte, error), read func(*tallyFile) error) error {
	rd.mu.Lock()
	f, ok := rd.tallies[file]
	rd.mu.Unlock()
	if ok {
		return read(f)
	}
	if data, err := mapFile(file); err == nil {
		if f, err = parseTally(data, version, n); err == nil {
			runtime.AddCleanup(f, unmap, data) // the sections are parts of the mapping
			if read(f) != nil {
				f = nil
			}
		} else {
			unmap(data)
		}
	}
	if f == nil {
		data, err := build()
		if err != nil {
			return err
		}
		keepCacheFile(file, data, keepPerShard)
		if f, err = parseTally(data, version, n); err != nil {
			return err
		}
		if err := read(f); err != nil {
			return err
		}
	}
	rd.mu.Lock()
	defer rd.mu.Unlock()
	if rd.tallies == nil || len(rd.tallies) >= maxLoaded {
		rd.tallies = map[string]*tallyFile{}
	}
	rd.tallies[file] = f
	return nil
}

// forget drops a tally that turned out damaged past its header, from
// memory and disk: the next read builds it again.
func (rd *Store) forget(file string) {
	rd.mu.Lock()
	delete(rd.tallies, file)
	rd.mu.Unlock()
	removeCacheFile(file)
}

// TallyWalks counts the reads that the tallies left to a walk over every
// record (a ring of versions, copies that disagree, a damaged tally): how
// the tests tell that the tallies answered.
func (rd *Store) TallyWalks() int {
	rd.mu.Lock()
	defer rd.mu.Unlock()
	return rd.walks
}

// walked counts a read that the tallies left to a walk.
func (rd *Store) walked() {
	rd.mu.Lock()
	rd.walks++
	rd.mu.Unlock()
}

// idTable is a tally's records (each once) sorted by ID hash, in entries of
// size bytes: the ID's hash, the hash of the ID it supersedes (0 for none),
// then what the tally's kind keeps.
type idTable struct {
	b    []byte
	size int
}

func (t idTable) len() int           { return len(t.b) / t.size }
func (t idTable) id(k int) uint64    { return binary.LittleEndian.Uint64(t.b[k*t.size:]) }
func (t idTable) old(k int) uint64   { return binary.LittleEndian.Uint64(t.b[k*t.size+8:]) }
func (t idTable) entry(k int) []byte { return t.b[k*t.size : (k+1)*t.size] }

// find is the entry of id.
func (t idTable) find(id uint64) (int, bool) {
	lo, hi := 0, t.len()
	for lo < hi {
		mid := int(uint(lo+hi) >> 1)
		if t.id(mid) < id {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	return lo, lo < t.len() && t.id(lo) == id
}

// edge is a record that supersedes one of another shard: the hashes of
// their IDs.
type edge struct{ id, old uint64 }

// crossShards applies the edges that cross shards (out, per tally) to the
// tallies' records (ids, per tally): per tally, the entries of its table
// that a record of another shard replaces. ok is false when the edges may
// close a ring of versions across shards: the tallies whose records both
// replace and are replaced across shards hold every ring that crosses
// shards, and their edges are looked at whole.
func crossShards(ids []idTable, out [][]edge) (hit [][]int, ok bool) {
	hit = make([][]int, len(ids))
	var all []edge
	for _, es := range out {
		all = append(all, es...)
	}
	if len(all) == 0 {
		return hit, true
	}
	for t, table := range ids {
		for _, e := range all {
			if k, found := table.find(e.old); found {
				hit[t] = append(hit[t], k)
			}
		}
		slices.Sort(hit[t])
		hit[t] = slices.Compact(hit[t])
	}
	var edges []versionEdge
	for t, table := range ids {
		if len(hit[t]) == 0 || len(out[t]) == 0 {
			continue
		}
		for k := range table.len() {
			if old := table.old(k); old != 0 {
				edges = append(edges, versionEdge{id: table.id(k), old: old})
			}
		}
	}
	if len(edges) == 0 {
		return hit, true
	}
	for _, e := range all {
		edges = append(edges, versionEdge{id: e.id, old: e.old})
	}
	return hit, ringBreaks(edges) == nil
}
