package knowledge

import (
	"slices"
	"strings"
	"testing"

	"github.com/planq-dev/planq/agent"
	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/project"
)

// TestAnUpdateMakesAgainOnlyWhatChanged: a new source makes its article
// again and the ones that share a tag with it (their Related links), and
// leaves every other article's blob as it was.
func TestAnUpdateMakesAgainOnlyWhatChanged(t *testing.T) {
	f := newFixture(t)
	f.learn("Builds run in Docker.", changelog.TypeGuide, "ci", "")
	f.learn("Logs are JSON lines.", changelog.TypeConvention, "logging", "")
	f.update()
	logs := f.file("knowledge/conventions/logging.md")
	f.learn("The cache key is the lockfile's hash.", changelog.TypeGuide, "ci", "")
	res := f.update()
	if !slices.Equal(res.Updated, []string{"knowledge/operations/ci.md"}) || f.file("knowledge/conventions/logging.md") != logs {
		t.Errorf("update after a new ci learning: %+v", res)
	}
	// A new article of the tag ci: the old one links to it.
	f.learn("CI secrets live in the vault.", changelog.TypeReference, "ci", "ci secrets")
	res = f.update()
	if !slices.Equal(res.Created, []string{"knowledge/project/ci-secrets.md"}) || !slices.Equal(res.Updated, []string{"knowledge/operations/ci.md"}) {
		t.Fatalf("update after a new article: %+v", res)
	}
	if got := f.file("knowledge/operations/ci.md"); !strings.Contains(got, "- [ci secrets](../project/ci-secrets.md)") {
		t.Errorf("the ci article does not link the new one:\n%s", got)
	}
	if again := f.update(); again.Changed() {
		t.Errorf("a second update changed something: %+v", again)
	}
}

// TestUpdateSkipsAnArticleTheWritePathRefuses: an article whose source
// holds a credential its writer allowed is refused by the write path, which
// scans every article once; the update reports it and commits the others.
func TestUpdateSkipsAnArticleTheWritePathRefuses(t *testing.T) {
	f := newFixture(t)
	rec, err := changelog.NewLearning(changelog.LearningInput{Text: "The staging deploy key is AKIA2E0A8F3B244C9986 for now.", Type: changelog.TypeReference,
		Domain: "deploy", Subject: "Staging keys"})
	if err != nil {
		t.Fatal(err)
	}
	rec.AllowSecret = true
	f.write(rec, nil)
	f.learn("Tokens are signed with RS256.", changelog.TypeConvention, "auth", "Token signing")
	res := f.update()
	if len(res.Skipped) != 1 || res.Skipped[0].Path != "knowledge/project/staging-keys.md" || !strings.Contains(res.Skipped[0].Problem, "credential") {
		t.Fatalf("skipped %+v, want the staging keys article refused for a credential", res.Skipped)
	}
	if len(res.Created) != 1 || res.Created[0] != "knowledge/conventions/token-signing.md" || !res.Changed() {
		t.Fatalf("created %v (commit %q), want the token signing article committed", res.Created, res.Commit)
	}
	tip, err := f.store.Repo.Tip(project.GlobalBranch)
	if err != nil {
		t.Fatal(err)
	}
	index, err := f.store.Repo.ReadFile(tip, IndexPath)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(index), "staging-keys") {
		t.Errorf("the index lists the refused article:\n%s", index)
	}
}

// TestAnIndexOfAnotherDisputeRuleChecksEveryStatus: an update skips asking
// whether an unchanged article's sources dispute each other when the index
// was written under today's rule; an index an older planq wrote (without
// the mark) makes it ask again, so an article disputed under an older rule
// is set right.
func TestAnIndexOfAnotherDisputeRuleChecksEveryStatus(t *testing.T) {
	f := newFixture(t)
	f.learn("Never log sensitive data.", changelog.TypeConvention, "security", "Security rules")
	f.learn("Fail closed on authorization errors.", changelog.TypeConvention, "security", "Security rules")
	f.update()
	p := f.articleAt("security-rules")
	if a := f.article(p); a.Status != changelog.StatusCurrent {
		t.Fatalf("two facts of one subject: status %s", a.Status)
	}
	// As an older planq left it: the article disputed, the index unmarked.
	older := func(index string) {
		t.Helper()
		tip, err := f.store.Repo.Tip(project.GlobalBranch)
		if err != nil {
			t.Fatal(err)
		}
		tree, err := f.store.Repo.TreeOf(tip)
		if err != nil {
			t.Fatal(err)
		}
		was, err := f.store.Repo.BlobAt(tree, p)
		if err != nil {
			t.Fatal(err)
		}
		wasIndex, err := f.store.Repo.BlobAt(tree, IndexPath)
		if err != nil {
			t.Fatal(err)
		}
		body := strings.Replace(f.file(p), "status: current", "status: disputed", 1)
		if _, err := f.store.CommitGlobal(f.ctx, agent.GlobalChange{Writer: "auth", Message: "kb update\n\n" + TrailerKey + ": update\n",
			Rewrites: map[string]agent.Rewrite{p: {Data: []byte(body), Was: was}, IndexPath: {Data: []byte(index), Was: wasIndex}}}); err != nil {
			t.Fatal(err)
		}
	}
	older(f.file(IndexPath)) // marked: the status is taken as the rule gave it
	f.update()
	if a := f.article(p); a.Status != changelog.StatusDisputed {
		t.Fatalf("under today's mark, an unchanged article is not asked again: status %s", a.Status)
	}
	older(strings.Replace(f.file(IndexPath), disputeRuleMark+"\n", "", 1))
	f.update()
	if a := f.article(p); a.Status != changelog.StatusCurrent {
		t.Errorf("after an older index, status %s, want current", a.Status)
	}
	if !strings.Contains(f.file(IndexPath), disputeRuleMark) {
		t.Errorf("the index does not carry the rule's mark:\n%s", f.file(IndexPath))
	}
}
