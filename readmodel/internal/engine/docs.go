package engine

import (
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/planq-dev/planq/search"
	"github.com/planq-dev/planq/staterepo"
)

// DocSet is one folder of a commit's tree read as documents of one kind
// (a docKind): global's knowledge articles (articles.go), a branch's
// memories (memories.go). Documents, not records (changelog.Spec.Document):
// at most a few hundred files a team or a model edits in place, so one
// small file of all of them, rather than rows and shards, and their fields
// as they are. The set is read once per tree of the folder, with its
// search index, and kept in one file, <cache>/<kind>/<tree><ext>, named by
// the tree's hash like a segment, so never stale:
//
//	magic, version (u32 LE)
//	documents  count, then each: path, blob, what the kind keeps of it
//	problems   count, then each: what the kind keeps of it
//	index      the documents' search index (package search's format,
//	           document i being document i)
//	CRC-32C of all of the above (u32 LE)
//
// A file damaged, cut short or of another version is built again from git.
// A new tree is built from the newest file there is: a document of the
// same path and blob is taken from it (and a problem, when the kind keeps
// a problem's blob), so one changed file costs one read.
type DocSet[F docFile, P any] struct {
	// List holds the documents, by path.
	List []F
	// Problems holds the files of the folder that are no document, by
	// path, and why.
	Problems []P
	index    *search.Index
}

// SearchIndex is the documents' search index, document i being List[i].
func (s *DocSet[F, P]) SearchIndex() *search.Index { return s.index }

// docFile is a document's file: its path from the top of the tree, and
// its blob.
type docFile interface {
	file() (string, staterepo.Hash)
}

// docKind is what one kind of document has of its own; the rest, reading
// it from git and keeping it in the cache, is the same for every kind.
type docKind[F docFile, P any] struct {
	// dir is the folder of the tree the documents are in.
	dir string
	// name is the folder of the cache its files are in, and what an error
	// calls them; ext ends their names.
	name, ext string
	magic     string
	version   uint32
	// keep bounds the files kept, and the sets a store keeps in memory.
	keep int
	// member says whether a file of the folder (dir/...) is read at all;
	// nil reads every one.
	member func(p string) bool
	// read makes file p a document and its search document; or, ok false,
	// the problem that keeps it out of the index; or fails the read.
	read func(p string, blob staterepo.Hash, data []byte) (f F, doc search.Doc, problem P, ok bool, err error)
	// problemFile is the file a problem is about: its path, that problems
	// sort by, and its blob, by which a new tree takes the problem from
	// the newest set rather than reading the file again (zero: it reads
	// it again).
	problemFile func(P) (string, staterepo.Hash)
	// appendDoc and decodeDoc are what a file keeps of a document after
	// its path and blob; appendProblem and decodeProblem, of a problem.
	appendDoc     func(b []byte, f F) []byte
	decodeDoc     func(d *decoder, p string, blob staterepo.Hash) F
	appendProblem func(b []byte, pr P) []byte
	decodeProblem func(d *decoder) P
	// size guesses the bytes appendDoc appends, so that a file of
	// thousands of documents is encoded in one buffer; nil guesses none.
	size func(F) int
}

func (k *docKind[F, P]) file(rd *Store, tree staterepo.Hash) string {
	return filepath.Join(rd.cacheDir, k.name, tree.String()+k.ext)
}

// at is the set of commit's tree: from memory (sets, which rd.mu guards),
// from its file, or built from git (and from the newest file there is).
// An empty set when the tree has no such folder.
func (k *docKind[F, P]) at(rd *Store, commit staterepo.Hash, sets *map[staterepo.Hash]*DocSet[F, P]) (*DocSet[F, P], error) {
	l, err := rd.listing(commit)
	if err != nil {
		return nil, err
	}
	dir, ok := l.find(k.dir)
	if !ok || !dir.Dir {
		return &DocSet[F, P]{}, nil
	}
	tree := dir.Blob
	rd.mu.Lock()
	set, ok := (*sets)[tree]
	rd.mu.Unlock()
	if ok {
		return set, nil
	}
	if set, err = k.readFile(k.file(rd, tree)); err != nil {
		if set, err = k.build(rd, tree); err != nil {
			return nil, err
		}
	}
	rd.mu.Lock()
	defer rd.mu.Unlock()
	if *sets == nil || len(*sets) >= k.keep {
		*sets = map[staterepo.Hash]*DocSet[F, P]{}
	}
	(*sets)[tree] = set
	return set, nil
}

// fileKey names a file by path and blob.
func fileKey(p string, blob staterepo.Hash) string { return p + "\x00" + blob.String() }

// build reads the set of tree, the kind's folder, from git, taking the
// documents (and problems) the newest file holds of the same path and
// blob from there, and keeps the result.
func (k *docKind[F, P]) build(rd *Store, tree staterepo.Hash) (*DocSet[F, P], error) {
	rd.builds.begin()
	defer rd.builds.end()
	files, err := rd.repo.WalkTree(tree, nil)
	if err != nil {
		return nil, err
	}
	b := &docBuild[F, P]{prev: map[string]keptDoc[F]{}, prevProblems: map[string]P{}, set: &DocSet[F, P]{}}
	if old, data := k.newest(rd); old != nil {
		k.startFrom(b, old, data)
	}
	for _, f := range files {
		p := k.dir + "/" + f.Path
		if k.member != nil && !k.member(p) {
			continue
		}
		if err := k.buildFile(rd, b, p, f.Blob); err != nil {
			return nil, err
		}
	}
	set := b.set
	slices.SortFunc(b.list, func(x, y keptDoc[F]) int { return strings.Compare(x.path, y.path) })
	slices.SortStableFunc(set.Problems, func(x, y P) int {
		px, _ := k.problemFile(x)
		py, _ := k.problemFile(y)
		return strings.Compare(px, py)
	})
	docs := make([]search.Indexed, len(b.list))
	for i, d := range b.list {
		set.List = append(set.List, d.file)
		docs[i] = d.doc
	}
	index := search.Encode(docs)
	k.keepFile(k.file(rd, tree), set, index)
	if set.index, err = search.OpenIndex(index); err != nil {
		return nil, err
	}
	return set, nil
}

// keptDoc is a document of a set, its path and its words indexed.
type keptDoc[F docFile] struct {
	path string
	file F
	doc  search.Indexed
}

// docBuild is a set in the making: the documents and problems of a set it
// starts from, by path and blob (fileKey), the documents it has, and the
// set, with its problems.
type docBuild[F docFile, P any] struct {
	prev         map[string]keptDoc[F]
	prevProblems map[string]P
	list         []keptDoc[F]
	set          *DocSet[F, P]
}

// startFrom takes the documents and problems of old, whose index is
// data, to be taken again where the same blob is at the same path.
func (k *docKind[F, P]) startFrom(b *docBuild[F, P], old *DocSet[F, P], data []byte) {
	if docs, err := search.Docs(data); err == nil && len(docs) == len(old.List) {
		for i, f := range old.List {
			p, blob := f.file()
			b.prev[fileKey(p, blob)] = keptDoc[F]{p, f, docs[i]}
		}
	}
	for _, pr := range old.Problems {
		if p, blob := k.problemFile(pr); !blob.IsZero() {
			b.prevProblems[fileKey(p, blob)] = pr
		}
	}
}

// buildFile adds the file at p, of blob, to the set: its document, or its
// problem.
func (k *docKind[F, P]) buildFile(rd *Store, b *docBuild[F, P], p string, blob staterepo.Hash) error {
	key := fileKey(p, blob)
	if d, ok := b.prev[key]; ok {
		b.list = append(b.list, d)
		return nil
	}
	if pr, ok := b.prevProblems[key]; ok {
		b.set.Problems = append(b.set.Problems, pr)
		return nil
	}
	data, err := rd.readBlob(blob)
	if err != nil {
		return err
	}
	rd.builds.parsedOne()
	doc, sdoc, pr, ok, err := k.read(p, blob, data)
	switch {
	case err != nil:
		return err
	case !ok:
		b.set.Problems = append(b.set.Problems, pr)
	default:
		b.list = append(b.list, keptDoc[F]{p, doc, sdoc.Index()})
	}
	return nil
}

// keepFile writes set, with its index, to file, dropping the oldest files
// beyond what the kind keeps. A file that cannot be kept costs time, never
// a read.
func (k *docKind[F, P]) keepFile(file string, set *DocSet[F, P], index []byte) {
	if err := writeCacheFile(file, k.encode(set, index)); err != nil {
		return
	}
	d := filepath.Dir(file)
	if entries, err := os.ReadDir(d); err == nil && len(entries) > k.keep {
		pruneOldest(d, entries, k.keep)
	}
}

// newest reads the most recently written file of the kind, whatever its
// tree, and its index; nil when none reads.
func (k *docKind[F, P]) newest(rd *Store) (*DocSet[F, P], []byte) {
	d := filepath.Join(rd.cacheDir, k.name)
	best := newestFile(d, k.ext)
	if best == "" {
		return nil, nil
	}
	set, index, err := k.decodeFile(filepath.Join(d, best))
	if err != nil {
		return nil, nil
	}
	return set, index
}

func (k *docKind[F, P]) encode(set *DocSet[F, P], index []byte) []byte {
	n := len(k.magic) + len(index) + 64
	for _, f := range set.List {
		p, _ := f.file()
		n += len(p) + 64
		if k.size != nil {
			n += k.size(f)
		}
	}
	b := append(make([]byte, 0, n), k.magic...)
	b = binary.LittleEndian.AppendUint32(b, k.version)
	b = binary.AppendUvarint(b, uint64(len(set.List)))
	for _, f := range set.List {
		p, blob := f.file()
		b = appendString(b, p)
		b = append(b, blob[:]...)
		b = k.appendDoc(b, f)
	}
	b = binary.AppendUvarint(b, uint64(len(set.Problems)))
	for _, pr := range set.Problems {
		b = k.appendProblem(b, pr)
	}
	b = binary.AppendUvarint(b, uint64(len(index)))
	b = append(b, index...)
	return binary.LittleEndian.AppendUint32(b, crc32.Checksum(b, castagnoli()))
}

// readFile reads a file of the kind and opens its index; an error when it
// is missing, damaged or of another version, and the set is built again
// from git.
func (k *docKind[F, P]) readFile(file string) (*DocSet[F, P], error) {
	set, index, err := k.decodeFile(file)
	if err != nil {
		return nil, err
	}
	ix, err := search.OpenIndex(index)
	if err == nil && ix.Len() != len(set.List) {
		err = errDamaged
	}
	if err != nil {
		return nil, err
	}
	set.index = ix
	return set, nil
}

func (k *docKind[F, P]) decodeFile(file string) (*DocSet[F, P], []byte, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, nil, err
	}
	if len(data) < len(k.magic)+8 || string(data[:len(k.magic)]) != k.magic {
		return nil, nil, errDamaged
	}
	body, sum := data[:len(data)-4], binary.LittleEndian.Uint32(data[len(data)-4:])
	if crc32.Checksum(body, castagnoli()) != sum {
		return nil, nil, errDamaged
	}
	if v := binary.LittleEndian.Uint32(body[len(k.magic):]); v != k.version {
		return nil, nil, fmt.Errorf("%s of version %d, not %d", k.name, v, k.version)
	}
	d := &decoder{b: body[len(k.magic)+4:]}
	set := &DocSet[F, P]{}
	n := d.uint()
	if n > uint64(len(d.b)) {
		return nil, nil, errDamaged
	}
	for range n {
		p := d.str()
		var blob staterepo.Hash
		copy(blob[:], d.bytes(uint64(len(blob))))
		set.List = append(set.List, k.decodeDoc(d, p, blob))
	}
	n = d.uint()
	if n > uint64(len(d.b)) {
		return nil, nil, errDamaged
	}
	for range n {
		set.Problems = append(set.Problems, k.decodeProblem(d))
	}
	index := d.bytes(d.uint())
	if d.err == nil && len(d.b) != 0 {
		d.fail()
	}
	if d.err != nil {
		return nil, nil, d.err
	}
	return set, index, nil
}
