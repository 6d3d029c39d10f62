package engine

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/internal/embed"
	"github.com/planq-dev/planq/search"
	"github.com/planq-dev/planq/staterepo"
)

// searchSegments are the segments a search reads for the kind's directory
// dir, whose shards are within: the directory's own when this process or
// the cache holds it; else, when at most one of its shards has no segment
// and some have (a record was just written to one), the shards'; else (a
// first read) the directory's, built as every read builds it. A search right after a write
// so costs the new record's shard segment, not a merge of the directory's
// index: the views that read the directory whole build that.
func (rd *Store) searchSegments(dir shard, within []shard) ([]*Segment, error) {
	if seg := rd.held(dir); seg != nil {
		return []*Segment{seg}, nil
	}
	if m := rd.segments.missing(within, 2); m > 1 || m == len(within) {
		seg, err := rd.segment(dir)
		if err != nil {
			return nil, err
		}
		return []*Segment{seg}, nil
	}
	out := make([]*Segment, 0, len(within))
	for _, sh := range within {
		seg, err := rd.segment(sh)
		if err != nil {
			return nil, err
		}
		out = append(out, seg)
	}
	return out, nil
}

// isDocument reports whether k is a kind of documents (an article): they
// are searched from their own index (articles.go), not from segments.
func isDocument(k changelog.Kind) bool {
	spec := k.Spec()
	return spec != nil && spec.Document
}

// damagedPart is a segment whose search index did not read.
type damagedPart struct {
	dir shard
	err error
}

func (e *damagedPart) Error() string { return fmt.Sprintf("search index of %s: %v", e.dir.path, e.err) }

func (e *damagedPart) Unwrap() error { return e.err }

// Found is what a search found: the hits asked for, best first, with
// their records and files; how many records matched in all; the terms the
// query looked for (for snippets); and the files that did not read.
type Found struct {
	Hits     []FoundHit
	Total    int
	Terms    []string
	Problems []*changelog.ParseError
	// Vector says whether the vector channel ranked (see search.Result);
	// VectorOff, when the search had a model, why it did not: the model
	// failed (a *ModelError), and only words were matched.
	Vector    bool
	VectorOff error
}

// FoundHit is one record, one article or one memory a search found.
type FoundHit struct {
	// Record is the record found; nil when an article was (Article) or a
	// memory (Memory, of MemoryAgent's branch, "" for global).
	Record      *changelog.Record
	Article     *ArticleFile
	Memory      *MemoryFile
	MemoryAgent string
	// Text is the record's file, as git holds it.
	Text  []byte
	Score float64
	// InRing marks the one version shown of versions that supersede each
	// other in a ring (see ringBreaks).
	InRing bool
	// Explain is how the hit came by its place, when the query asked.
	Explain *search.Explanation
}

// Search asks q of the kinds' directories (hidden ones are searched and
// counted, never returned) in the trees of tips, by the records' words
// and, when model gives a model, by their meaning: the phrasings and the
// records are embedded by it (the records once, see vectors.go). model is
// asked once the segments are open, so that a model that takes its time
// to load loads while they are read; nil, or a model that gives nil,
// searches by words alone. A model that fails leaves the search to words
// alone too, and Found says why. A damaged index is built again from git,
// each once, and the question asked again. When kinds hold the article's
// kind, global's articles (articles.go) are one more part, ranked with the
// records by their words alone; tips do not change which are read.
func (rd *Store) Search(ctx context.Context, tips []staterepo.Hash, kinds, hidden []changelog.Kind, q search.Query, model func() embed.Model) (Found, error) {
	return rd.SearchWithMemories(ctx, tips, kinds, hidden, nil, q, model)
}

// SearchWithMemories is Search that also asks q of the memories of mems'
// branches (memories.go): one more part each, after the articles, ranked
// with the records by their words alone. No kinds with a non-nil mems
// searches the memories alone.
func (rd *Store) SearchWithMemories(ctx context.Context, tips []staterepo.Hash, kinds, hidden []changelog.Kind, mems []MemorySource,
	q search.Query, model func() embed.Model) (Found, error) {
	v := &queryVectors{get: model}
	rebuilt := map[shard]bool{}
	for {
		res, err := rd.search(ctx, tips, kinds, hidden, mems, q, v)
		var failed *ModelError
		if errors.As(err, &failed) {
			v.model, v.vecs, v.off = nil, nil, err
			continue
		}
		if res.VectorOff == nil {
			res.VectorOff = v.off
		}
		var damaged *damagedPart
		if !errors.As(err, &damaged) || rebuilt[damaged.dir] {
			return res, err
		}
		rebuilt[damaged.dir] = true
		if _, err := rd.rebuild(damaged.dir); err != nil {
			return Found{}, err
		}
	}
}

// search asks q of the kinds' directories in the trees of tips, each one
// part of the search (see Segment): its rows say which records count and
// may be found, its index where the words are. Only the hits returned are
// decoded.
func (rd *Store) search(ctx context.Context, tips []staterepo.Hash, kinds, hidden []changelog.Kind, mems []MemorySource, q search.Query, v *queryVectors) (Found, error) {
	s := &searchRun{corpus: &corpus{replaced: map[uint64]bool{}, retracted: map[uint64]bool{}, rings: map[uint64]bool{}, filters: q.Filters},
		articlesPart: -1, memoryParts: map[int]memoryAt{}}
	records := slices.DeleteFunc(slices.Clone(kinds), isDocument)
	var dirs []shard
	var within map[shard][]shard
	if (len(kinds) == 0 && mems == nil) || len(records) > 0 { // no kinds with memories: the memories alone
		var err error
		if dirs, within, s.problems, err = rd.shardsWithin(tips, records); err != nil {
			return Found{}, err
		}
	}
	rd.builds.begin() // the directories' builds are one build to hear of
	defer rd.builds.end()
	if err := rd.openSegments(s, dirs, within); err != nil {
		return Found{}, err
	}
	if err := s.addSegmentParts(rd.shadows(s), changelog.DirsOf(hidden)); err != nil {
		return Found{}, err
	}
	if slices.Contains(kinds, changelog.KindArticle) {
		if err := rd.addArticles(s, slices.Contains(hidden, changelog.KindArticle)); err != nil {
			return Found{}, err
		}
	}
	if err := rd.addMemories(s, mems); err != nil {
		return Found{}, err
	}
	if err := rd.addVectors(ctx, s, &q, v); err != nil {
		return Found{}, err
	}
	found, err := search.Search(s.corpus.searchParts, q)
	var partErr *search.PartError
	if errors.As(err, &partErr) && partErr.Part < len(s.segs) {
		return Found{}, &damagedPart{dir: s.segs[partErr.Part].shard, err: err}
	}
	if err != nil {
		return Found{}, err
	}
	return rd.found(s, found)
}

// addVectors gives the segments' parts their records' vectors, and q its
// phrasings', when v has a model.
func (rd *Store) addVectors(ctx context.Context, s *searchRun, q *search.Query, v *queryVectors) error {
	model, vecs, err := v.prepare(ctx, q.Phrasings)
	if err != nil || model == nil {
		return err
	}
	for i, seg := range s.segs {
		if s.corpus.searchParts[i].Vectors, err = rd.Vectors(ctx, seg, model); err != nil {
			return err
		}
	}
	q.Vectors = vecs
	return nil
}

// searchRun is what one search reads: its segments (each with its kind's
// directory), the corpus they make with the articles and memories, and
// the problems met on the way.
type searchRun struct {
	corpus   *corpus
	segs     []*Segment
	kindOf   []string
	problems []*changelog.ParseError
	// articles are global's articles, in part articlesPart (-1 for none);
	// memoryParts the memories of each of their parts.
	articles     *Articles
	articlesPart int
	memoryParts  map[int]memoryAt
}

// openSegments opens the segments a search reads of each directory.
func (rd *Store) openSegments(s *searchRun, dirs []shard, within map[shard][]shard) error {
	for _, dir := range dirs {
		got, err := rd.searchSegments(dir, within[dir])
		if err != nil {
			return err
		}
		for _, seg := range got {
			s.segs, s.kindOf = append(s.segs, seg), append(s.kindOf, dir.path)
		}
	}
	return nil
}

// shadows marks, per segment, the rows whose record an earlier segment of
// its directory holds, and puts in the corpus the versions replaced,
// retracted and shown of rings.
func (rd *Store) shadows(s *searchRun) [][]bool {
	shadows := make([][]bool, len(s.segs))
	byKind := map[string][]int{}
	var kindDirs []string
	for i, dir := range s.kindOf {
		if byKind[dir] == nil {
			kindDirs = append(kindDirs, dir)
		}
		byKind[dir] = append(byKind[dir], i)
	}
	for _, dir := range kindDirs {
		group := make([]*Segment, len(byKind[dir]))
		for j, i := range byKind[dir] {
			group[j] = s.segs[i]
		}
		c := rd.copiesOf(dir, group)
		for j, i := range byKind[dir] {
			shadows[i] = c.shadow[j]
		}
		s.corpus.mark(c)
	}
	return shadows
}

// mark notes what c says of the records' status.
func (c *corpus) mark(cp *copies) {
	for _, old := range cp.replaced {
		c.replaced[old] = true
	}
	for _, old := range cp.retracted {
		c.retracted[old] = true
	}
	for _, id := range cp.rings {
		c.rings[id] = true
	}
}

// addSegmentParts makes each segment a part of the corpus; those of
// hiddenDirs count but are never found.
func (s *searchRun) addSegmentParts(shadows [][]bool, hiddenDirs []string) error {
	for i, seg := range s.segs {
		ix, err := seg.searchIndex()
		if err != nil {
			return &damagedPart{dir: seg.shard, err: err}
		}
		p := &corpusPart{seg: seg, shadow: shadows[i], hidden: slices.Contains(hiddenDirs, s.kindOf[i])}
		s.corpus.parts = append(s.corpus.parts, p)
		for _, pr := range seg.problems {
			s.problems = append(s.problems, pr.err)
		}
		s.corpus.searchParts = append(s.corpus.searchParts, s.corpus.part(p, ix))
	}
	return nil
}

// addArticles makes global's articles one more part, if there are any.
func (rd *Store) addArticles(s *searchRun, hidden bool) error {
	articles, err := rd.GlobalArticles()
	if err != nil {
		return err
	}
	s.articles = articles
	s.problems = append(s.problems, articles.Problems...)
	if len(articles.List) > 0 {
		s.articlesPart = len(s.corpus.searchParts)
		s.corpus.searchParts = append(s.corpus.searchParts, articlePart(articles, s.corpus.filters, hidden))
	}
	return nil
}

// addMemories makes the memories of each branch of mems one more part,
// each tree once.
func (rd *Store) addMemories(s *searchRun, mems []MemorySource) error {
	seenTrees, seenFiles := map[*Memories]bool{}, map[string]bool{}
	for _, src := range mems {
		m, err := rd.MemoriesAt(src.Tip)
		if err != nil {
			return err
		}
		if len(m.List) == 0 || seenTrees[m] {
			continue
		}
		seenTrees[m] = true
		s.memoryParts[len(s.corpus.searchParts)] = memoryAt{m, src.Agent}
		s.corpus.searchParts = append(s.corpus.searchParts, memoryPart(m, src, seenFiles, s.corpus.filters, false))
	}
	return nil
}

// found is what the search found, each hit read from its part.
func (rd *Store) found(s *searchRun, found search.Result) (Found, error) {
	res := Found{Total: found.Total, Terms: found.Terms, Problems: uniqueProblems(s.problems), Vector: found.Vector}
	for i, h := range found.Hits {
		hit, err := rd.foundHit(s, h)
		if err != nil {
			return Found{}, err
		}
		if found.Explain != nil {
			hit.Explain = &found.Explain[i]
		}
		res.Hits = append(res.Hits, hit)
	}
	return res, nil
}

// foundHit is the article, memory or record h found.
func (rd *Store) foundHit(s *searchRun, h search.Hit) (FoundHit, error) {
	if h.Part == s.articlesPart {
		f := s.articles.List[h.Doc]
		return FoundHit{Article: &f, Text: f.Text, Score: h.Score}, nil
	}
	if m, ok := s.memoryParts[h.Part]; ok {
		f := m.set.List[h.Doc]
		return FoundHit{Memory: &f, MemoryAgent: m.agent, Text: []byte(f.Text), Score: h.Score}, nil
	}
	seg := s.corpus.parts[h.Part].seg
	r, err := seg.Record(h.Doc)
	if err != nil {
		return FoundHit{}, &damagedPart{dir: s.segs[h.Part].shard, err: err}
	}
	data, err := rd.text(r, seg.row(h.Doc).blob)
	if err != nil {
		return FoundHit{}, err
	}
	return FoundHit{Record: r, Text: data, Score: h.Score, InRing: s.corpus.rings[seg.RowID(h.Doc)]}, nil
}

// memoryAt is one part of memories: the set, and the agent of its branch.
type memoryAt struct {
	set   *Memories
	agent string
}

// queryVectors is a search's model and its phrasings' vectors, asked for
// once, or why there are none.
type queryVectors struct {
	get   func() embed.Model
	asked bool
	model embed.Model
	vecs  [][]float32
	off   error
}

// prepare asks for the model, once, and embeds the phrasings by it. A
// model that fails is no model, and off says why.
func (v *queryVectors) prepare(ctx context.Context, phrasings []string) (embed.Model, [][]float32, error) {
	if v.asked || v.get == nil {
		return v.model, v.vecs, nil
	}
	v.asked = true
	m := v.get()
	if m == nil {
		return nil, nil, nil
	}
	vecs, err := m.Embed(ctx, phrasings)
	if err == nil && len(vecs) != len(phrasings) {
		err = fmt.Errorf("%d vectors for %d phrasings", len(vecs), len(phrasings))
	}
	for _, vec := range vecs {
		if err == nil && len(vec) != m.Dim() {
			err = fmt.Errorf("a vector of dimension %d, not %d", len(vec), m.Dim())
		}
	}
	switch {
	case ctx.Err() != nil:
		return nil, nil, ctx.Err()
	case err != nil:
		v.off = &ModelError{Model: m.ID(), Err: err}
		return nil, nil, nil
	}
	v.model, v.vecs = m, vecs
	return m, vecs, nil
}

// text is the file of record r, whose blob is blob. A record planq wrote
// is its own rendering, which the hash proves without reading git (whose
// pack index alone costs a process milliseconds); any other is read from
// git.
func (rd *Store) text(r *changelog.Record, blob staterepo.Hash) ([]byte, error) {
	if data, err := changelog.Render(r); err == nil && staterepo.BlobHash(data) == blob {
		return data, nil
	}
	return rd.readBlob(blob)
}

// corpus is what a search reads: one part per directory, and what their
// rows say of every record's status.
type corpus struct {
	parts       []*corpusPart
	searchParts []search.Part
	// replaced are the IDs (hashed) a later version supersedes; retracted
	// those a tombstone does; rings the versions shown of rings of
	// versions, which are marked.
	replaced, retracted, rings map[uint64]bool
	filters                    search.Filters
}

type corpusPart struct {
	seg *Segment
	// shadow marks the rows whose record an earlier part holds.
	shadow []bool
	// hidden is a directory of a kind the query counts but never returns.
	hidden bool
}

// part is p as package search reads it: its copies of records another
// part holds do not count, and only current records within the filters on
// rows may be found.
func (c *corpus) part(p *corpusPart, ix *search.Index) search.Part {
	since := SinceNanos(c.filters.Since)
	agentOK := make([]bool, len(p.seg.agents))
	for i, a := range p.seg.agents {
		agentOK[i] = len(c.filters.Agents) == 0 || slices.Contains(c.filters.Agents, a)
	}
	return search.Part{Index: ix,
		Counts: func(doc int) bool { return !p.shadow[doc] },
		Keep: func(doc int) bool {
			if p.hidden {
				return false
			}
			seg, id := p.seg, p.seg.RowID(doc)
			return seg.rowFlags(doc)&flagTombstone == 0 && agentOK[seg.rowAgent(doc)] && seg.rowAt(doc) >= since &&
				!c.retracted[id] && (c.filters.AllVersions || !c.replaced[id])
		},
		Order: func(doc int) (int64, uint64) { return p.seg.rowAt(doc), p.seg.RowID(doc) },
	}
}
