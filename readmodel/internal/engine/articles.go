package engine

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/project"
	"github.com/planq-dev/planq/search"
	"github.com/planq-dev/planq/staterepo"
)

// Articles are global's knowledge base as the read model keeps it: every
// article under knowledge/ parsed once per tree of that directory, with
// the articles' search index, in one file, <cache>/articles/<tree>.art,
// named by the tree's hash like a segment, so never stale. Articles are
// documents, not records (changelog.Spec.Document): a few hundred files a
// team edits in place, so one small file of all of them, rather than rows
// and shards, and their fields as they are (an article has no ID, agent or
// versions).
//
//	magic, version (u32 LE)
//	articles  count, then each: path, blob, frontmatter fields, body, file
//	problems  count, then each: path, line, message
//	index     the articles' search index (package search's format,
//	          document i being article i)
//	CRC-32C of all of the above (u32 LE)
//
// A file damaged, cut short or of another version is built again from git.
// A new tree of knowledge/ is built from the newest file there is: an
// article of the same path and blob is taken from it, so one changed
// article costs one parse.
type Articles struct {
	// List holds the articles by path.
	List     []ArticleFile
	Problems []*changelog.ParseError
	index    *search.Index
}

// ArticleFile is one article and its file on global.
type ArticleFile struct {
	*changelog.Article
	Path string
	Blob staterepo.Hash
	// Text is the file as git holds it.
	Text []byte
}

const (
	articlesMagic   = "planq-articles\n"
	articlesVersion = 1
	// keepArticleSets bounds the files kept: one per tree of knowledge/
	// a branch or a pinned read meets.
	keepArticleSets = 16
)

func (rd *Store) articlesFile(tree staterepo.Hash) string {
	return filepath.Join(rd.cacheDir, "articles", tree.String()+".art")
}

// GlobalArticles are the articles of global's tip (the pinned one when
// the store reads a moment in the past); none when there is no global or
// it has no knowledge/.
func (rd *Store) GlobalArticles() (*Articles, error) {
	branches, err := rd.Branches(project.GlobalBranch)
	if err != nil {
		return nil, err
	}
	tip, ok := branches[project.GlobalBranch]
	if !ok {
		return &Articles{}, nil
	}
	return rd.ArticlesAt(tip)
}

// ArticlesAt are the articles of commit's tree: from memory, from their
// file, or built from git (and from the newest file there is).
func (rd *Store) ArticlesAt(commit staterepo.Hash) (*Articles, error) {
	l, err := rd.listing(commit)
	if err != nil {
		return nil, err
	}
	dir, ok := l.find(changelog.KindArticle.Dir())
	if !ok || !dir.Dir {
		return &Articles{}, nil
	}
	tree := dir.Blob
	rd.mu.Lock()
	a, ok := rd.articleSets[tree]
	rd.mu.Unlock()
	if ok {
		return a, nil
	}
	if a, err = readArticles(rd.articlesFile(tree)); err != nil {
		if a, err = rd.buildArticles(tree); err != nil {
			return nil, err
		}
	}
	rd.mu.Lock()
	defer rd.mu.Unlock()
	if rd.articleSets == nil || len(rd.articleSets) >= keepArticleSets {
		rd.articleSets = map[staterepo.Hash]*Articles{}
	}
	rd.articleSets[tree] = a
	return a, nil
}

// SearchIndex is the articles' search index, document i being List[i].
func (a *Articles) SearchIndex() *search.Index { return a.index }

// buildArticles reads the articles of tree, the knowledge/ directory,
// from git, taking those the newest file holds (same path, same blob)
// from there, and keeps the result.
func (rd *Store) buildArticles(tree staterepo.Hash) (*Articles, error) {
	rd.builds.begin()
	defer rd.builds.end()
	files, err := rd.repo.WalkTree(tree, nil)
	if err != nil {
		return nil, err
	}
	type kept struct {
		file ArticleFile
		doc  search.Indexed
	}
	prev := map[staterepo.Hash]kept{}
	if old := rd.newestArticles(); old != nil {
		if docs, err := search.Docs(old.data); err == nil && len(docs) == len(old.set.List) {
			for i, f := range old.set.List {
				prev[f.Blob] = kept{f, docs[i]}
			}
		}
	}
	dir := changelog.KindArticle.Dir()
	var list []kept
	var problems []*changelog.ParseError
	for _, f := range files {
		p := dir + "/" + f.Path
		if _, _, ok := changelog.SplitArticlePath(p); !ok {
			continue // the index, deletions' markers, READMEs: no articles
		}
		if k, ok := prev[f.Blob]; ok && k.file.Path == p {
			list = append(list, k)
			continue
		}
		data, err := rd.readBlob(f.Blob)
		if err != nil {
			return nil, err
		}
		a, err := changelog.ParseArticle(p, data)
		rd.builds.parsedOne()
		if err != nil {
			var pe *changelog.ParseError
			if !errors.As(err, &pe) {
				return nil, fmt.Errorf("failed to read %s: %w", p, err)
			}
			problems = append(problems, pe)
			continue
		}
		list = append(list, kept{ArticleFile{Article: a, Path: p, Blob: f.Blob, Text: data}, search.DocOfArticle(a).Index()})
	}
	slices.SortFunc(list, func(x, y kept) int { return strings.Compare(x.file.Path, y.file.Path) })
	set := &Articles{Problems: problems}
	docs := make([]search.Indexed, len(list))
	for i, k := range list {
		set.List = append(set.List, k.file)
		docs[i] = k.doc
	}
	index := search.Encode(docs)
	// A file that cannot be kept costs time, never a read.
	if err := writeCacheFile(rd.articlesFile(tree), encodeArticles(set, index)); err == nil {
		d := filepath.Dir(rd.articlesFile(tree))
		if entries, err := os.ReadDir(d); err == nil && len(entries) > keepArticleSets {
			pruneOldest(d, entries, keepArticleSets)
		}
	}
	if set.index, err = search.OpenIndex(index); err != nil {
		return nil, err
	}
	return set, nil
}

// oldArticles is a file of articles as a build starts from it.
type oldArticles struct {
	set  *Articles
	data []byte // its index
}

// newestArticles reads the most recently written file of articles,
// whatever its tree; nil when none reads.
func (rd *Store) newestArticles() *oldArticles {
	d := filepath.Join(rd.cacheDir, "articles")
	entries, err := os.ReadDir(d)
	if err != nil {
		return nil
	}
	var best string
	var bestAt time.Time
	for _, e := range entries {
		if info, err := e.Info(); err == nil && filepath.Ext(e.Name()) == ".art" && info.ModTime().After(bestAt) {
			best, bestAt = e.Name(), info.ModTime()
		}
	}
	if best == "" {
		return nil
	}
	set, index, err := decodeArticlesFile(filepath.Join(d, best))
	if err != nil {
		return nil
	}
	return &oldArticles{set: set, data: index}
}

func encodeArticles(set *Articles, index []byte) []byte {
	b := []byte(articlesMagic)
	b = binary.LittleEndian.AppendUint32(b, articlesVersion)
	b = binary.AppendUvarint(b, uint64(len(set.List)))
	for _, f := range set.List {
		a := f.Article
		b = appendString(b, f.Path)
		b = append(b, f.Blob[:]...)
		b = appendString(b, a.Title)
		b = appendString(b, a.Description)
		b = appendString(b, a.Topic)
		b = appendStrings(b, a.Tags)
		b = binary.AppendVarint(b, a.Created.UnixNano())
		b = binary.AppendVarint(b, a.Updated.UnixNano())
		b = appendStrings(b, a.Sources)
		b = appendString(b, string(a.Confidence))
		b = appendString(b, string(a.Status))
		b = appendString(b, string(a.CuratedBy))
		b = appendString(b, a.Slug)
		b = appendString(b, a.Body)
		b = appendString(b, string(f.Text))
	}
	b = binary.AppendUvarint(b, uint64(len(set.Problems)))
	for _, p := range set.Problems {
		b = appendString(b, p.Path)
		b = binary.AppendUvarint(b, uint64(p.Line))
		b = appendString(b, p.Msg)
	}
	b = binary.AppendUvarint(b, uint64(len(index)))
	b = append(b, index...)
	return binary.LittleEndian.AppendUint32(b, crc32.Checksum(b, castagnoli()))
}

// readArticles reads a file of articles and opens its index; an error when
// it is missing, damaged or of another version, and the articles are
// built again from git.
func readArticles(file string) (*Articles, error) {
	set, index, err := decodeArticlesFile(file)
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

func decodeArticlesFile(file string) (*Articles, []byte, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, nil, err
	}
	if len(data) < len(articlesMagic)+8 || string(data[:len(articlesMagic)]) != articlesMagic {
		return nil, nil, errDamaged
	}
	body, sum := data[:len(data)-4], binary.LittleEndian.Uint32(data[len(data)-4:])
	if crc32.Checksum(body, castagnoli()) != sum {
		return nil, nil, errDamaged
	}
	if v := binary.LittleEndian.Uint32(body[len(articlesMagic):]); v != articlesVersion {
		return nil, nil, fmt.Errorf("articles of version %d, not %d", v, articlesVersion)
	}
	d := &decoder{b: body[len(articlesMagic)+4:]}
	set := &Articles{}
	n := d.uint()
	if n > uint64(len(d.b)) {
		return nil, nil, errDamaged
	}
	for range n {
		var f ArticleFile
		a := &changelog.Article{Type: changelog.TypeArticle}
		f.Path = d.str()
		copy(f.Blob[:], d.bytes(uint64(len(f.Blob))))
		a.Title, a.Description, a.Topic, a.Tags = d.str(), d.str(), d.str(), d.strs()
		a.Created, a.Updated = time.Unix(0, d.int()).UTC(), time.Unix(0, d.int()).UTC()
		a.Timestamp = a.Updated
		a.Sources = d.strs()
		a.Confidence, a.Status, a.CuratedBy = changelog.Confidence(d.str()), changelog.Status(d.str()), changelog.CuratedBy(d.str())
		a.Slug, a.Body = d.str(), d.str()
		f.Text = []byte(d.str())
		f.Article = a
		set.List = append(set.List, f)
	}
	n = d.uint()
	if n > uint64(len(d.b)) {
		return nil, nil, errDamaged
	}
	for range n {
		set.Problems = append(set.Problems, &changelog.ParseError{Path: d.str(), Line: int(d.uint()), Msg: d.str()})
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

// articlePart is the articles as one part of a search: each counts; those
// kept are within the filters an article can meet (no agent wrote one, so
// a filter by agent leaves them out; since reads their updated time), and
// a deprecated article, whose every source was superseded, is found only
// with every version, as a superseded record is. Hidden, they are
// searched and counted, never returned.
func (a *Articles) articlePart(f search.Filters, hidden bool) search.Part {
	since := SinceNanos(f.Since)
	return search.Part{Index: a.index,
		Counts: func(int) bool { return true },
		Keep: func(doc int) bool {
			art := a.List[doc].Article
			return !hidden && len(f.Agents) == 0 && art.Updated.UnixNano() >= since &&
				(f.AllVersions || art.Status != changelog.StatusDeprecated)
		},
		Order: func(doc int) (int64, uint64) { return a.List[doc].Updated.UnixNano(), IDHash(a.List[doc].Path) },
	}
}
