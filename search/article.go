package search

import (
	"strings"

	"github.com/planq-dev/planq/changelog"
)

// DocOfArticle is article a as a document, indexed as a record is: what it
// is about (its title and description) counts most, then where it belongs
// (its topic and tags), then its body. Its facets are type article and no
// domain, so that a filter by domain or by a record's type leaves articles
// out, as it leaves out records of other kinds.
func DocOfArticle(a *changelog.Article) Doc {
	d := Doc{Type: a.Type}
	meta := append([]string{a.Topic}, a.Tags...)
	d.text = [numFields]string{
		fieldStrong: a.Title + "\n" + a.Description,
		fieldMeta:   strings.Join(meta, "\n"),
		fieldBody:   a.Body,
	}
	return d
}
