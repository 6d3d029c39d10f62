package knowledge

import (
	"slices"
	"strings"

	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/readmodel"
)

// Overview counts the articles on global by status: what planq status
// shows, from the read model's index of global's articles.
type Overview struct {
	Articles   int `json:"articles"`
	Disputed   int `json:"disputed"`
	Deprecated int `json:"deprecated"`
}

// Dispute is a disputed article as the review page shows it: what it is,
// and its Conflict section's lines, each a side in its words with its
// source.
type Dispute struct {
	Path  string   `json:"path"`
	Slug  string   `json:"slug"`
	Title string   `json:"title"`
	Sides []string `json:"sides"`
}

// Survey counts articles (the read model's, of global) by status, and
// lists the disputed ones by path.
func Survey(articles []readmodel.Article) (Overview, []Dispute) {
	var ov Overview
	disputes := []Dispute{}
	for _, a := range articles {
		ov.Articles++
		if a.Status == changelog.StatusDisputed {
			ov.Disputed++
			disputes = append(disputes, Dispute{Path: a.Path, Slug: a.Slug, Title: a.Title, Sides: sidesOf(a.Body)})
		}
		if a.Status == changelog.StatusDeprecated {
			ov.Deprecated++
		}
	}
	slices.SortFunc(disputes, func(x, y Dispute) int { return strings.Compare(x.Path, y.Path) })
	return ov, disputes
}

// sidesOf are the list items of an article's Conflict section.
func sidesOf(body string) []string {
	_, section, _, ok := cutSection(body, conflictHeading)
	sides := []string{}
	if !ok {
		return sides
	}
	for _, line := range strings.Split(section, "\n") {
		if item, ok := strings.CutPrefix(strings.TrimSpace(line), "- "); ok {
			sides = append(sides, item)
		}
	}
	return sides
}
