package engine

import (
	"encoding/binary"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/project"
	"github.com/planq-dev/planq/search"
	"github.com/planq-dev/planq/staterepo"
)

// Articles are global's knowledge base as the read model keeps it: every
// article under knowledge/ parsed once per tree of that directory, with
// the articles' search index, in one file, <cache>/articles/<tree>.art (a
// DocSet, docs.go). Their fields are as they are (an article has no ID,
// agent or versions):
//
//	articles  each: path, blob, frontmatter fields, body, file
//	problems  each: path, line, message
//
// A file that does not parse as an article is a problem, read again in a
// new tree; one changed article costs one parse.
type Articles = DocSet[ArticleFile, *changelog.ParseError]

// ArticleFile is one article and its file on global.
type ArticleFile struct {
	*changelog.Article
	Path string
	Blob staterepo.Hash
	// Text is the file as git holds it.
	Text []byte
}

func (f ArticleFile) file() (string, staterepo.Hash) { return f.Path, f.Blob }

// articleKind is how the read model reads and keeps articles. Its files
// are bounded to one per tree of knowledge/ a branch or a pinned read
// meets.
var articleKind = &docKind[ArticleFile, *changelog.ParseError]{
	dir:  changelog.KindArticle.Dir(),
	name: "articles", ext: ".art",
	magic: "planq-articles\n", version: 2,
	keep: 16,
	member: func(p string) bool {
		_, _, ok := changelog.SplitArticlePath(p)
		return ok // not the index, deletions' markers, READMEs
	},
	read:        readArticle,
	problemFile: func(pe *changelog.ParseError) (string, staterepo.Hash) { return pe.Path, staterepo.ZeroHash },
	appendDoc:   appendArticle,
	size: func(f ArticleFile) int {
		return len(f.Text) + len(f.Title) + len(f.Description) + 16*len(f.Sources) + 128
	},
	decodeDoc:     decodeArticle,
	appendProblem: appendParseError,
	decodeProblem: func(d *decoder) *changelog.ParseError {
		return &changelog.ParseError{Path: d.str(), Line: int(d.uint()), Msg: d.str()}
	},
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
	return articleKind.at(rd, commit, &rd.articleSets)
}

// readArticle parses file p strictly, frontmatter and all: a file that
// does not parse is a problem, never an article.
func readArticle(p string, blob staterepo.Hash, data []byte) (ArticleFile, search.Doc, *changelog.ParseError, bool, error) {
	a, err := changelog.ParseArticle(p, data)
	if err != nil {
		var pe *changelog.ParseError
		if !errors.As(err, &pe) {
			return ArticleFile{}, search.Doc{}, nil, false, fmt.Errorf("failed to read %s: %w", p, err)
		}
		return ArticleFile{}, search.Doc{}, pe, false, nil
	}
	return ArticleFile{Article: a, Path: p, Blob: blob, Text: data}, search.DocOfArticle(a), nil, true, nil
}

func appendArticle(b []byte, f ArticleFile) []byte {
	a := f.Article
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
	// The body is the file's text after its frontmatter: kept as where it
	// is in the text, not a second copy of it, which would double a file
	// every update writes whole.
	if at := strings.LastIndex(string(f.Text), a.Body); at >= 0 && a.Body != "" {
		b = binary.AppendUvarint(b, uint64(at)+1)
		b = binary.AppendUvarint(b, uint64(len(a.Body)))
	} else {
		b = binary.AppendUvarint(b, 0)
		b = appendString(b, a.Body)
	}
	return appendString(b, string(f.Text))
}

func decodeArticle(d *decoder, p string, blob staterepo.Hash) ArticleFile {
	a := &changelog.Article{Type: changelog.TypeArticle}
	a.Title, a.Description, a.Topic, a.Tags = d.str(), d.str(), d.str(), d.strs()
	a.Created, a.Updated = time.Unix(0, d.int()).UTC(), time.Unix(0, d.int()).UTC()
	a.Timestamp = a.Updated
	a.Sources = d.strs()
	a.Confidence, a.Status, a.CuratedBy = changelog.Confidence(d.str()), changelog.Status(d.str()), changelog.CuratedBy(d.str())
	a.Slug = d.str()
	at, n := d.uint(), uint64(0)
	if at == 0 {
		a.Body = d.str()
	} else {
		n = d.uint()
	}
	text := d.str()
	if at > 0 {
		if at-1 > uint64(len(text)) || n > uint64(len(text))-(at-1) {
			d.fail()
			return ArticleFile{Article: a, Path: p, Blob: blob}
		}
		a.Body = text[at-1 : at-1+n]
	}
	return ArticleFile{Article: a, Path: p, Blob: blob, Text: []byte(text)}
}

func appendParseError(b []byte, pe *changelog.ParseError) []byte {
	b = appendString(b, pe.Path)
	b = binary.AppendUvarint(b, uint64(pe.Line))
	return appendString(b, pe.Msg)
}

// articlePart is the articles as one part of a search: each counts; those
// kept are within the filters an article can meet (no agent wrote one, so
// a filter by agent leaves them out; since reads their updated time), and
// a deprecated article, whose every source was superseded, is found only
// with every version, as a superseded record is. Hidden, they are
// searched and counted, never returned.
func articlePart(a *Articles, f search.Filters, hidden bool) search.Part {
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
