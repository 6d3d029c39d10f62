package engine

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"time"

	"github.com/planq-dev/planq/internal/embed"
	"github.com/planq-dev/planq/search"
	"github.com/planq-dev/planq/staterepo"
)

// A segment's vectors are its records' embeddings by one model, for the
// vector channel of search: one per row, in the segment's order, each
// quantised to int8 with a scale (search.Quantise). They are kept beside
// the segments, under <cache>/vectors/<model key>/<shard key>/<tree>.vec,
// the model key a hash of the model's ID: a model that changes (another
// file, another version, another endpoint) has an ID of its own, and so
// vectors of its own, made again from the records. They are made by the
// searches that need them, never by the commands that do not search
// (which load no model), and like the segments they are named by what git
// names, so never stale, and made again from git when missing or damaged.
//
// A shard's vectors start from the newest vectors of the same shard by the
// same model: a record they hold (the same blob) keeps its vector, so one
// new record costs one embedding. A kind's directory's vectors are its
// shards', one after the other, as its rows are.
//
//	header  magic, version, rows, dimension, model ID length,
//	        CRC-32C of all that follows (u32 LE)
//	id      the model's ID
//	scales  per row, f32 LE
//	data    per row, dimension int8 values
//	blobs   per row, the blob of its record (what the next vectors of the
//	        shard reuse by)
const (
	vectorsMagic   = "planq-vectors\n"
	vectorsVersion = 1
	vectorsHeader  = len(vectorsMagic) + 5*4
	// embedBatch is how many texts one call of a model embeds: an endpoint
	// bounds a request's size.
	embedBatch = 256
	// keepModels is how many models' vectors the cache keeps.
	keepModels = 2
)

// vectorSet is a segment's vectors as read or made, with their records' blobs.
type vectorSet struct {
	vecs  *search.Vectors
	blobs []byte
}

type vectorKey struct {
	shard
	model string
}

// ModelError is a model that failed to embed: search goes on by its words
// alone, and says why.
type ModelError struct {
	Model string
	Err   error
}

func (e *ModelError) Error() string {
	return fmt.Sprintf("embedding model %s: %v", e.Model, e.Err)
}

func (e *ModelError) Unwrap() error { return e.Err }

// modelKey names a model's directory of vectors.
func modelKey(id string) string { return strconv.FormatUint(IDHash(id), 16) }

func (rd *Store) vectorsDir(model string) string {
	return filepath.Join(rd.cacheDir, "vectors", modelKey(model))
}

func (rd *Store) vectorFile(model string, sh shard) string {
	return filepath.Join(rd.vectorsDir(model), strconv.FormatUint(IDHash(sh.path), 16), sh.tree.String()+".vec")
}

// Vectors returns seg's vectors by m: held by this process, read from the
// cache, or made (see vectorSet). An error of m's is a *ModelError.
func (rd *Store) Vectors(ctx context.Context, seg *Segment, m embed.Model) (*search.Vectors, error) {
	set, err := rd.vectorsOf(ctx, seg, m)
	if err != nil {
		return nil, err
	}
	return set.vecs, nil
}

func (rd *Store) vectorsOf(ctx context.Context, seg *Segment, m embed.Model) (*vectorSet, error) {
	key := vectorKey{seg.shard, m.ID()}
	rd.mu.Lock()
	set, ok := rd.vectors[key]
	rd.mu.Unlock()
	if ok {
		return set, nil
	}
	file := rd.vectorFile(key.model, seg.shard)
	set, err := readVectors(file, key.model, m.Dim(), seg.Len())
	if err != nil {
		if set, err = rd.makeVectors(ctx, seg, m); err != nil {
			return nil, err
		}
		rd.pruneModels(key.model)
		// A cache that cannot be written costs time, never a search.
		_ = writeCacheFile(file, encodeVectors(key.model, m.Dim(), set))
		if entries, err := os.ReadDir(filepath.Dir(file)); err == nil && len(entries) > keepPerShard {
			pruneOldest(filepath.Dir(file), entries, keepPerShard)
		}
	}
	rd.mu.Lock()
	defer rd.mu.Unlock()
	if len(rd.vectors) >= maxLoaded {
		clear(rd.vectors)
	}
	rd.vectors[key] = set
	return set, nil
}

// makeVectors embeds seg's records by m: a directory's from its shards'
// vectors; a shard's taken from its newest vectors by m where the record
// is the same, the rest embedded.
func (rd *Store) makeVectors(ctx context.Context, seg *Segment, m embed.Model) (*vectorSet, error) {
	dim := m.Dim()
	if dim < 1 || dim > embed.MaxDim {
		return nil, &ModelError{Model: m.ID(), Err: fmt.Errorf("dimension %d, want 1 to %d", dim, embed.MaxDim)}
	}
	n := seg.Len()
	set := &vectorSet{vecs: &search.Vectors{Dim: dim, Scales: make([]float32, 0, n), Data: make([]byte, 0, n*dim)}, blobs: make([]byte, 0, n*len(staterepo.Hash{}))}
	if seg.parts != nil {
		return set, rd.joinVectors(ctx, seg, m, set)
	}
	return set, rd.embedShard(ctx, seg, m, set)
}

// joinVectors fills set, for a directory's segment, with its shards'
// vectors.
func (rd *Store) joinVectors(ctx context.Context, seg *Segment, m embed.Model, set *vectorSet) error {
	for _, p := range seg.parts {
		child, err := rd.segment(p.shard)
		if err != nil {
			return err
		}
		if child.Len() != p.end-p.start {
			return &damagedPart{dir: seg.shard, err: fmt.Errorf("part %s has %d rows, not %d", p.path, child.Len(), p.end-p.start)}
		}
		cs, err := rd.vectorsOf(ctx, child, m)
		if err != nil {
			return err
		}
		set.vecs.Scales = append(set.vecs.Scales, cs.vecs.Scales...)
		set.vecs.Data = append(set.vecs.Data, cs.vecs.Data...)
		set.blobs = append(set.blobs, cs.blobs...)
		runtime.KeepAlive(cs.vecs) // its data may be a mapping
	}
	return nil
}

// embedShard fills set, for a shard's segment, taking from its newest
// vectors by m where the record is the same and embedding the rest.
// Records are decoded and embedded a batch at a time, so that a shard
// embedded from nothing holds one batch of texts, not all of them.
func (rd *Store) embedShard(ctx context.Context, seg *Segment, m embed.Model, set *vectorSet) error {
	dim := m.Dim()
	prior := rd.priorVectors(m.ID(), dim, seg.path)
	b := &batch{m: m, set: set, todo: make([]int, 0, embedBatch), texts: make([]string, 0, embedBatch)}
	for i := range seg.Len() {
		blob := seg.row(i).blob
		set.blobs = append(set.blobs, blob[:]...)
		if at, ok := prior.rows[blob]; ok {
			set.vecs.Scales = append(set.vecs.Scales, prior.vecs.Scales[at])
			set.vecs.Data = append(set.vecs.Data, prior.vecs.Data[at*dim:(at+1)*dim]...)
			continue
		}
		r, err := seg.Transient(i)
		if err != nil {
			return &damagedPart{dir: seg.shard, err: err}
		}
		set.vecs.Scales = append(set.vecs.Scales, 0)
		set.vecs.Data = append(set.vecs.Data, make([]byte, dim)...)
		b.todo = append(b.todo, i)
		b.texts = append(b.texts, search.DocOf(r).Text())
		if len(b.texts) == embedBatch {
			if err := b.flush(ctx); err != nil {
				return err
			}
		}
	}
	if err := b.flush(ctx); err != nil {
		return err
	}
	runtime.KeepAlive(prior.vecs)
	return nil
}

// batch is the texts of set's rows todo, waiting to be embedded by m.
type batch struct {
	m     embed.Model
	set   *vectorSet
	todo  []int
	texts []string
}

// flush embeds the batch's texts into their rows of set.
func (b *batch) flush(ctx context.Context) error {
	if len(b.texts) == 0 {
		return nil
	}
	dim := b.set.vecs.Dim
	vs, err := b.m.Embed(ctx, b.texts)
	if err == nil && len(vs) != len(b.texts) {
		err = fmt.Errorf("%d vectors for %d texts", len(vs), len(b.texts))
	}
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return &ModelError{Model: b.m.ID(), Err: err}
	}
	for j, v := range vs {
		if len(v) != dim {
			return &ModelError{Model: b.m.ID(), Err: fmt.Errorf("a vector of dimension %d, not %d", len(v), dim)}
		}
		i := b.todo[j]
		_, b.set.vecs.Scales[i] = search.Quantise(b.set.vecs.Data[i*dim:i*dim:(i+1)*dim], v)
	}
	b.todo, b.texts = b.todo[:0], b.texts[:0]
	return nil
}

// prior is a shard's earlier vectors by one model, by the blob of each
// record.
type prior struct {
	vecs *search.Vectors
	rows map[staterepo.Hash]int
}

// priorVectors reads the newest vectors of path by model, whatever its
// tree: what the shard's next vectors start from. Empty when there are none
// that read.
func (rd *Store) priorVectors(model string, dim int, path string) prior {
	dir := filepath.Dir(rd.vectorFile(model, shard{path: path}))
	best := newestFile(dir, ".vec")
	if best == "" {
		return prior{}
	}
	set, err := readVectors(filepath.Join(dir, best), model, dim, -1)
	if err != nil {
		return prior{}
	}
	p := prior{vecs: set.vecs, rows: make(map[staterepo.Hash]int, len(set.vecs.Scales))}
	for i := range set.vecs.Scales {
		var h staterepo.Hash
		copy(h[:], set.blobs[i*len(h):])
		p.rows[h] = i
	}
	return p
}

// pruneModels drops the vectors of all but the keepModels models used
// last, model among them, once a process.
func (rd *Store) pruneModels(model string) {
	rd.mu.Lock()
	done := rd.prunedModels
	rd.prunedModels = true
	rd.mu.Unlock()
	if done {
		return
	}
	dir := rd.vectorsDir(model)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return
	}
	now := time.Now()
	_ = os.Chtimes(dir, now, now) // the model used last
	parent := filepath.Dir(dir)
	if entries, err := os.ReadDir(parent); err == nil && len(entries) > keepModels {
		type aged struct {
			name string
			at   time.Time
		}
		var dirs []aged
		for _, e := range entries {
			if info, err := e.Info(); err == nil && e.IsDir() {
				dirs = append(dirs, aged{e.Name(), info.ModTime()})
			}
		}
		for len(dirs) > keepModels {
			oldest := 0
			for i, d := range dirs {
				if d.at.Before(dirs[oldest].at) {
					oldest = i
				}
			}
			_ = os.RemoveAll(filepath.Join(parent, dirs[oldest].name)) // another process may be at it too
			dirs = append(dirs[:oldest], dirs[oldest+1:]...)
		}
	}
}

// encodeVectors lays out a vectors file.
func encodeVectors(model string, dim int, set *vectorSet) []byte {
	n := len(set.vecs.Scales)
	body := make([]byte, 0, len(model)+n*(4+dim+len(staterepo.Hash{})))
	body = append(body, model...)
	for _, s := range set.vecs.Scales {
		body = binary.LittleEndian.AppendUint32(body, math.Float32bits(s))
	}
	body = append(body, set.vecs.Data...)
	body = append(body, set.blobs...)
	out := make([]byte, 0, vectorsHeader+len(body))
	out = append(out, vectorsMagic...)
	for _, v := range []uint32{vectorsVersion, uint32(n), uint32(dim), uint32(len(model)), crc32.Checksum(body, castagnoli())} {
		out = binary.LittleEndian.AppendUint32(out, v)
	}
	return append(out, body...)
}

// errVectors is a vectors file that is not the one asked for: of another
// model or dimension, of another count of rows, or damaged.
var errVectors = errors.New("vectors file does not hold together")

// readVectors maps the vectors file at path and checks that it holds rows
// vectors (any number when rows is -1) of dimension dim by model, under
// its checksum.
func readVectors(path, model string, dim, rows int) (*vectorSet, error) {
	data, err := mapFile(path)
	if err != nil {
		return nil, err
	}
	set, err := parseVectors(data, model, dim, rows)
	if err != nil {
		unmap(data)
		return nil, err
	}
	// The data is part of the mapping, which lives as long as the vectors.
	runtime.AddCleanup(set.vecs, unmap, data)
	return set, nil
}

func parseVectors(data []byte, model string, dim, rows int) (*vectorSet, error) {
	le := binary.LittleEndian
	if len(data) < vectorsHeader || string(data[:len(vectorsMagic)]) != vectorsMagic {
		return nil, errVectors
	}
	h := data[len(vectorsMagic):]
	version, n, d, idLen, sum := le.Uint32(h), int64(le.Uint32(h[4:])), int64(le.Uint32(h[8:])), int64(le.Uint32(h[12:])), le.Uint32(h[16:])
	body := data[vectorsHeader:]
	hash := int64(len(staterepo.Hash{}))
	if version != vectorsVersion || d != int64(dim) || (rows >= 0 && n != int64(rows)) || n > maxSegmentRows ||
		idLen+n*(4+d+hash) != int64(len(body)) || string(body[:idLen]) != model {
		return nil, errVectors
	}
	if crc32.Checksum(body, castagnoli()) != sum {
		return nil, errVectors
	}
	at := idLen
	scales := make([]float32, n)
	for i := range scales {
		scales[i] = math.Float32frombits(le.Uint32(body[at+int64(i)*4:]))
		if s := float64(scales[i]); math.IsNaN(s) || math.IsInf(s, 0) || s < 0 {
			return nil, errVectors
		}
	}
	at += n * 4
	vecs := &search.Vectors{Dim: dim, Scales: scales, Data: body[at : at+n*d : at+n*d]}
	at += n * d
	return &vectorSet{vecs: vecs, blobs: body[at:]}, nil
}
