package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/planq-dev/planq/changelog"
)

// scaleArticles is how many articles the scale measurement's project has
// on global when prime is measured with its knowledge base.
const scaleArticles = 200

// seedArticles writes n articles onto global, as a person would with git:
// spread over the default topics (a few preferences among them), each a
// title, a description and a body of some twenty lines in the seeded
// records' words, one commit for all.
func seedArticles(dir, name string, n int) {
	state := filepath.Join(homeOf(), "state-repos", name+".git")
	work := filepath.Join(dir, "knowledge-seed")
	check(os.RemoveAll(work))
	run(dir, "git", "clone", "-q", "--branch", "global", state, work)
	topics := []string{"architecture", "decisions", "conventions", "operations", "project", "history"}
	domains := []string{"auth", "api", "db", "ci", "ui", "infra", "docs", "perf"}
	at := time.Now().UTC().AddDate(0, -1, 0).Truncate(time.Second)
	for i := range n {
		topic := topics[i%len(topics)]
		if i%40 == 0 {
			topic = "preferences"
		}
		d := domains[i%len(domains)]
		var body strings.Builder
		fmt.Fprintf(&body, "# Summary\n\nHow the %s layer handles part %d: retries, backoff and the tests that hold it.\n\n# Key facts\n\n", d, i)
		for j := range 16 {
			fmt.Fprintf(&body, "- The %s layer retries idempotent call %d of part %d with backoff; the tests cover it.\n", d, j, i)
		}
		a, err := changelog.NewArticle(changelog.ArticleInput{Topic: topic, Slug: fmt.Sprintf("%s-part-%d", d, i),
			Title: fmt.Sprintf("The %s layer, part %d", d, i), Description: fmt.Sprintf("What the %s layer does for part %d, and why", d, i),
			Tags: []string{d}, Updated: at.Add(time.Duration(i) * time.Minute), Confidence: changelog.ConfidenceMedium,
			CuratedBy: changelog.CuratedHuman, Body: body.String()})
		check(err)
		data, err := changelog.RenderArticle(a)
		check(err)
		path := filepath.Join(work, filepath.FromSlash(a.Path()))
		check(os.MkdirAll(filepath.Dir(path), 0o755))
		check(os.WriteFile(path, data, 0o644))
	}
	run(work, "git", "add", "-A")
	run(work, "git", "-c", "gc.auto=0", "commit", "-q", "-m", fmt.Sprintf("knowledge: %d articles", n))
	run(work, "git", "push", "-q", "origin", "HEAD:global")
	check(os.RemoveAll(work))
}
