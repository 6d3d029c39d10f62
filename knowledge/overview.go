package knowledge

import (
	"slices"
	"strings"

	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/project"
	"github.com/planq-dev/planq/staterepo"
)

// Overview counts the articles on global by status: what planq status
// shows. It reads global's tree alone, no history.
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

// Survey reads the articles on global's tip: their counts by status, and
// the disputed ones by path. Files that are no article are left out ('planq
// kb update' and 'planq kb list' name them).
func Survey(repo *staterepo.Repo) (Overview, []Dispute, error) {
	var ov Overview
	disputes := []Dispute{}
	tip, err := repo.Tip(project.GlobalBranch)
	if err != nil {
		return ov, disputes, err
	}
	tree, err := repo.TreeOf(tip)
	if err != nil {
		return ov, disputes, err
	}
	files, err := repo.WalkTree(tree, []string{dir})
	if err != nil {
		return ov, disputes, err
	}
	for _, f := range files {
		if _, _, ok := changelog.SplitArticlePath(f.Path); !ok {
			continue
		}
		data, err := repo.ReadBlob(f.Blob)
		if err != nil {
			return ov, disputes, err
		}
		a, err := changelog.ParseArticle(f.Path, data)
		if err != nil {
			continue
		}
		ov.Articles++
		if a.Status == changelog.StatusDisputed {
			ov.Disputed++
			disputes = append(disputes, Dispute{Path: f.Path, Slug: a.Slug, Title: a.Title, Sides: sidesOf(a.Body)})
		}
		if a.Status == changelog.StatusDeprecated {
			ov.Deprecated++
		}
	}
	slices.SortFunc(disputes, func(x, y Dispute) int { return strings.Compare(x.Path, y.Path) })
	return ov, disputes, nil
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
