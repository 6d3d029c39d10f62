package knowledge

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/planq-dev/planq/agent"
	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/internal/testkit/testgit"
	"github.com/planq-dev/planq/internal/testkit/testmodel"
	"github.com/planq-dev/planq/internal/testkit/testproject"
	"github.com/planq-dev/planq/project"
)

// fixture is a project whose global the tests write records on directly
// (promote is team's, which may run Update after it lands).
type fixture struct {
	t     *testing.T
	ctx   context.Context
	store *agent.Store
}

func newFixture(t *testing.T) *fixture {
	p := testproject.New(t, nil)
	return &fixture{t: t, ctx: context.Background(), store: p.Store}
}

// write commits rec on global, as a lead's writer does, and returns its ID.
func (f *fixture) write(rec *changelog.Record, err error) string {
	f.t.Helper()
	if err != nil {
		f.t.Fatal(err)
	}
	if _, err := f.store.CommitGlobal(f.ctx, agent.GlobalChange{Writer: "auth", Records: []*changelog.Record{rec}, Message: "test record\n"}); err != nil {
		f.t.Fatal(err)
	}
	return rec.ID
}

// learn writes a learning on global and returns its ID.
func (f *fixture) learn(text string, typ changelog.Type, domain, subject string, files ...string) string {
	f.t.Helper()
	return f.write(changelog.NewLearning(changelog.LearningInput{Text: text, Type: typ, Domain: domain, Subject: subject, Files: files,
		Resolution: map[bool]string{true: "Retry once."}[typ == changelog.TypeFailure]}))
}

func (f *fixture) decide(decision, rationale, subject string) string {
	f.t.Helper()
	return f.write(changelog.NewDecision(changelog.DecisionInput{Decision: decision, Rationale: rationale, Subject: subject, Alternatives: []string{"HS256"}}))
}

// retract writes the retraction of the record id on global.
func (f *fixture) retract(id string) {
	f.t.Helper()
	set, err := f.store.Records.Branch(project.GlobalBranch)
	if err != nil {
		f.t.Fatal(err)
	}
	for _, r := range set.Records {
		if r.ID == id {
			f.write(changelog.NewTombstone(r, "wrong"))
			return
		}
	}
	f.t.Fatalf("no record %s on global", id)
}

func (f *fixture) update() Result {
	f.t.Helper()
	res, err := Update(f.ctx, f.store, Options{})
	if err != nil {
		f.t.Fatal(err)
	}
	return res
}

func (f *fixture) file(p string) string {
	f.t.Helper()
	tip, err := f.store.Repo.Tip(project.GlobalBranch)
	if err != nil {
		f.t.Fatal(err)
	}
	data, err := f.store.Repo.ReadFile(tip, p)
	if err != nil {
		f.t.Fatalf("%s on global: %v", p, err)
	}
	return string(data)
}

func (f *fixture) has(p string) bool {
	tip, err := f.store.Repo.Tip(project.GlobalBranch)
	if err != nil {
		f.t.Fatal(err)
	}
	_, err = f.store.Repo.ReadFile(tip, p)
	return err == nil
}

func (f *fixture) globalTip() string {
	f.t.Helper()
	return testgit.Run(f.t, f.store.Repo.Path, "rev-parse", project.GlobalBranch)
}

// asPerson clones the state repository, lets edit change the clone's
// files, commits as a person would (no trailer) and pushes to global.
func (f *fixture) asPerson(message string, edit func(dir string)) {
	f.t.Helper()
	dir := filepath.Join(f.t.TempDir(), "global")
	testgit.Run(f.t, "", "clone", "-q", "--branch", project.GlobalBranch, f.store.Repo.Path, dir)
	edit(dir)
	testgit.Run(f.t, dir, "add", "-A")
	testgit.Run(f.t, dir, "commit", "-q", "-m", message)
	testgit.Run(f.t, dir, "push", "-q", "origin", "HEAD:"+project.GlobalBranch)
}

// TestUpdateGathersRecordsIntoArticlesEachSentenceCited: records sharing a
// subject, a domain or the files of a subject become one article each;
// every line of a key fact is a record's own first sentence and its ID;
// the index lists them; a second run changes nothing.
func TestUpdateGathersRecordsIntoArticlesEachSentenceCited(t *testing.T) {
	f := newFixture(t)
	d := f.decide("Sign tokens with RS256.", "Public keys can be shared with every service. More text.", "jwt signing")
	l1 := f.learn("Keys rotate every 90 days. The old key stays valid a week.", changelog.TypePattern, "auth", "jwt signing", "internal/jwt/keys.go")
	l2 := f.learn("The key cache lives in keys.go.", changelog.TypeReference, "auth", "", "internal/jwt/keys.go") // the files of jwt signing
	l3 := f.learn("Sessions are stored in Redis.", changelog.TypeConvention, "sessions", "")

	res := f.update()
	want := []string{"knowledge/decisions/jwt-signing.md", "knowledge/conventions/sessions.md"}
	slices.Sort(want)
	if !slices.Equal(res.Created, want) || !res.Index || res.Commit == "" {
		t.Fatalf("first update: %+v", res)
	}
	jwt := f.file("knowledge/decisions/jwt-signing.md")
	a, err := changelog.ParseArticle("knowledge/decisions/jwt-signing.md", []byte(jwt))
	if err != nil {
		t.Fatal(err)
	}
	if a.Title != "jwt signing" || a.Description != "Sign tokens with RS256." || a.Status != changelog.StatusCurrent ||
		a.Confidence != changelog.ConfidenceHigh || a.CuratedBy != changelog.CuratedAuto || !slices.Equal(a.Sources, []string{d, l1, l2}) {
		t.Errorf("article: %+v", a)
	}
	for _, line := range []string{
		"# Decision\n\nSign tokens with RS256. (" + d + ")",
		"- Keys rotate every 90 days. (" + l1 + ")",
		"- The key cache lives in keys.go. (" + l2 + ")",
		"- File `internal/jwt/keys.go` (" + l1 + ", " + l2 + ")",
		"# Rationale\n\n- Public keys can be shared with every service. (" + d + ")",
	} {
		if !strings.Contains(jwt, line) {
			t.Errorf("article lacks %q:\n%s", line, jwt)
		}
	}
	// Every line planq wrote in a section cites a source.
	for _, line := range strings.Split(a.Body, "\n") {
		if strings.HasPrefix(line, "- ") && !strings.HasPrefix(line, "- [") && !strings.Contains(line, "(pq-") {
			t.Errorf("uncited line %q", line)
		}
	}
	if !strings.Contains(f.file("knowledge/conventions/sessions.md"), "Sessions are stored in Redis. ("+l3+")") {
		t.Error("the sessions article does not cite its learning")
	}
	index := f.file(IndexPath)
	for _, line := range []string{
		"# decisions\n\n* [jwt signing](decisions/jwt-signing.md) - Sign tokens with RS256. (current, high confidence, decided ",
		"# conventions\n\n* [sessions](conventions/sessions.md) - Sessions are stored in Redis. (current, low confidence)",
	} {
		if !strings.Contains(index, line) {
			t.Errorf("index lacks %q:\n%s", line, index)
		}
	}

	tip := f.globalTip()
	again := f.update()
	if again.Changed() || f.globalTip() != tip || len(again.Created)+len(again.Updated) != 0 {
		t.Errorf("a second update changed something: %+v", again)
	}
}

// TestNewSourcesJoinAnArticleAndDeprecationFollowsItsSources: a new
// learning on the subject joins its article and moves updated; once every
// source is retracted or superseded the article is deprecated.
func TestNewSourcesJoinAnArticleAndDeprecationFollowsItsSources(t *testing.T) {
	f := newFixture(t)
	l1 := f.learn("Builds run in Docker.", changelog.TypeGuide, "ci", "")
	f.update()
	p := "knowledge/operations/ci.md"
	before, err := changelog.ParseArticle(p, []byte(f.file(p)))
	if err != nil {
		t.Fatal(err)
	}
	time.Sleep(1100 * time.Millisecond) // an article's times are to the second
	l2 := f.learn("The cache key is the lockfile's hash.", changelog.TypeGuide, "ci", "")
	res := f.update()
	if !slices.Equal(res.Updated, []string{p}) {
		t.Fatalf("update after a new learning: %+v", res)
	}
	after, err := changelog.ParseArticle(p, []byte(f.file(p)))
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(after.Sources, []string{l1, l2}) || !after.Updated.After(before.Updated) || !after.Created.Equal(before.Created) ||
		!strings.Contains(after.Body, "The cache key is the lockfile's hash. ("+l2+")") {
		t.Errorf("after a new source: %+v", after)
	}

	for _, id := range []string{l1, l2} {
		f.retract(id)
	}
	res = f.update()
	if !slices.Equal(res.Deprecated, []string{p}) {
		t.Fatalf("update after every source was retracted: %+v", res)
	}
	dep, err := changelog.ParseArticle(p, []byte(f.file(p)))
	if err != nil {
		t.Fatal(err)
	}
	if dep.Status != changelog.StatusDeprecated || dep.Confidence != changelog.ConfidenceLow ||
		!strings.Contains(dep.Body, "Builds run in Docker. ("+l1+", retracted)") {
		t.Errorf("deprecated article: %+v", dep)
	}
	if !strings.Contains(f.file(IndexPath), "(deprecated, low confidence)") {
		t.Error("the index does not show the article deprecated")
	}
	if again := f.update(); again.Changed() {
		t.Errorf("a second update changed something: %+v", again)
	}
}

// TestAHumanEditIsNeverRewritten: an article a person changed with plain
// git keeps every byte; new sources are listed under "New since your
// edit" at its end, once.
func TestAHumanEditIsNeverRewritten(t *testing.T) {
	f := newFixture(t)
	f.learn("Migrations run before deploys.", changelog.TypeGuide, "deploy", "")
	f.update()
	p := "knowledge/operations/deploy.md"
	var edited string
	f.asPerson("a person's words", func(dir string) {
		file := filepath.Join(dir, filepath.FromSlash(p))
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		edited = strings.Replace(string(data), "curated_by: auto", "curated_by: auto\n# the team's notes", 1) +
			"\nWe deploy on Tuesdays; see the runbook.\n"
		if err := os.WriteFile(file, []byte(edited), 0o644); err != nil {
			t.Fatal(err)
		}
	})
	l2 := f.learn("Deploys need a green main.", changelog.TypeGuide, "deploy", "")
	res := f.update()
	if !slices.Equal(res.Appended, []string{p}) || len(res.Updated) != 0 {
		t.Fatalf("update after a person's edit: %+v", res)
	}
	got := f.file(p)
	want := edited + "\n# New since your edit\n\n- Deploys need a green main. (" + l2 + ")\n"
	if got != want {
		t.Errorf("the person's article:\n%s\nwant:\n%s", got, want)
	}
	// planq's own append does not make the article planq's again.
	l3 := f.learn("Rollbacks use the previous image.", changelog.TypeGuide, "deploy", "")
	f.update()
	got = f.file(p)
	if !strings.HasPrefix(got, edited) || !strings.HasSuffix(got, "("+l2+")\n- Rollbacks use the previous image. ("+l3+")\n") ||
		strings.Count(got, "# New since your edit") != 1 {
		t.Errorf("after a second new source:\n%s", got)
	}
	if again := f.update(); again.Changed() {
		t.Errorf("a second update changed something: %+v", again)
	}
}

// TestADeletedArticleIsNeverMadeAgain: kb delete, or git rm on global by a
// person, is remembered in a file of its own, and no later update makes
// the article again, though its records stay and new ones come.
func TestADeletedArticleIsNeverMadeAgain(t *testing.T) {
	f := newFixture(t)
	f.learn("Logs are JSON.", changelog.TypeConvention, "logging", "")
	f.learn("Metrics go to Prometheus.", changelog.TypeConvention, "metrics", "")
	f.update()

	del, err := Delete(f.ctx, f.store, "logging", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if del.Path != "knowledge/conventions/logging.md" || del.Remembered != "knowledge/.deleted/conventions/logging" ||
		f.has(del.Path) || !f.has(del.Remembered) || strings.Contains(f.file(IndexPath), "logging") {
		t.Fatalf("delete: %+v", del)
	}
	if _, err := Delete(f.ctx, f.store, "logging", Options{}); err == nil || !strings.Contains(err.Error(), "deleted already") {
		t.Errorf("a second delete: %v", err)
	}
	for _, bad := range []string{"../x", "a b", "A"} {
		if _, err := Delete(f.ctx, f.store, bad, Options{}); err == nil || !strings.Contains(err.Error(), "slug") {
			t.Errorf("delete %q: %v", bad, err)
		}
	}

	f.asPerson("not wanted", func(dir string) {
		testgit.Run(t, dir, "rm", "-q", "knowledge/conventions/metrics.md")
	})
	f.learn("Logs carry a request ID.", changelog.TypeConvention, "logging", "")
	f.learn("Metrics are scraped every 15s.", changelog.TypeConvention, "metrics", "")
	res := f.update()
	if !slices.Equal(res.Remembered, []string{"knowledge/conventions/metrics.md"}) || len(res.Created) != 0 {
		t.Fatalf("update after the deletions: %+v", res)
	}
	if f.has("knowledge/conventions/logging.md") || f.has("knowledge/conventions/metrics.md") || !f.has("knowledge/.deleted/conventions/metrics") {
		t.Error("a deleted article was made again, or its deletion is not remembered")
	}
	if again := f.update(); again.Changed() {
		t.Errorf("a second update changed something: %+v", again)
	}
}

// TestBrokenArticlesAreReportedAndNeverOverwritten: a file at an
// article's path that does not parse is reported with its line, and
// planq writes no article over it.
func TestBrokenArticlesAreReportedAndNeverOverwritten(t *testing.T) {
	f := newFixture(t)
	f.learn("Feature flags live in LaunchDarkly.", changelog.TypeReference, "flags", "")
	broken := "---\ntype: article\ntitle: [unclosed\n---\n"
	f.asPerson("by hand", func(dir string) {
		file := filepath.Join(dir, "knowledge", "project", "flags.md")
		if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(file, []byte(broken), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "knowledge", "project", "Bad Name.md"), []byte("x\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	})
	res := f.update()
	if len(res.Created) != 0 || len(res.Skipped) != 2 || f.file("knowledge/project/flags.md") != broken {
		t.Fatalf("update over a broken article: %+v", res)
	}
	if res.Skipped[0].Path != "knowledge/project/Bad Name.md" || res.Skipped[1].Path != "knowledge/project/flags.md" ||
		!strings.HasPrefix(res.Skipped[1].Problem, "line ") {
		t.Errorf("skipped: %+v", res.Skipped)
	}
	entries, problems, err := List(f.ctx, f.store.Handle, Options{})
	if err != nil || len(entries) != 0 || len(problems) != 2 {
		t.Errorf("list: %+v %+v %v", entries, problems, err)
	}
	if _, err := Update(f.ctx, f.store, Options{Topics: []string{"a/b"}}); err == nil || !strings.Contains(err.Error(), `topic "a/b"`) {
		t.Errorf("a topic with '/': %v", err)
	}
}

// TestTheProjectsTopicsPlaceNewArticles: with topics of the project's own,
// an article goes to the topic of its records when the project has it,
// else to its first topic; the index lists them in the project's order.
func TestTheProjectsTopicsPlaceNewArticles(t *testing.T) {
	f := newFixture(t)
	f.decide("Use Postgres.", "It has JSON columns.", "database")
	f.learn("Run migrations with make migrate.", changelog.TypeGuide, "db", "")
	res, err := Update(f.ctx, f.store, Options{Topics: []string{"runbooks", "decisions"}})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(res.Created, []string{"knowledge/decisions/database.md", "knowledge/runbooks/db.md"}) {
		t.Fatalf("created: %v", res.Created)
	}
	index := f.file(IndexPath)
	if !strings.Contains(index, "Topics: runbooks (1), decisions (1).") || strings.Index(index, "# runbooks") > strings.Index(index, "# decisions") {
		t.Errorf("index:\n%s", index)
	}
}

// A learning that names no subject and cites no file goes to the subject
// of its domain whose record means what it means (by the model extraction
// embeds with), not to its domain's article; one that means something else
// stays with its domain, and one of another domain is never compared.
func TestLooseLearningJoinsTheSubjectItMeans(t *testing.T) {
	f := newFixture(t)
	model, err := testmodel.Synonyms("tokens credentials", "expire lapse", "minutes quarter hour", "sessions", "redis", "cookies", "secure")
	if err != nil {
		t.Fatal(err)
	}
	signed := f.learn("Tokens expire after minutes.", changelog.TypePattern, "auth", "token lifetime")
	loose := f.learn("Credentials lapse after a quarter hour.", changelog.TypePattern, "auth", "")
	other := f.learn("Cookies are secure.", changelog.TypeConvention, "auth", "")
	elsewhere := f.learn("Credentials lapse after a quarter hour.", changelog.TypePattern, "web", "")
	// Decisions that name no subject: one that means the subject joins
	// its article; one alone gets an article of its own, under decisions.
	meant := f.decide("Credentials lapse after a quarter hour", "so it was agreed", "")
	alone := f.decide("Cookies are secure", "so it was agreed", "")
	res, err := Update(f.ctx, f.store, Options{model: model})
	if err != nil {
		t.Fatal(err)
	}
	if lifetime := f.file(f.articleAt("token-lifetime")); !strings.Contains(lifetime, meant) {
		t.Errorf("the token-lifetime article does not cite the decision that means it, %s:\n%s", meant, lifetime)
	}
	var citing []string
	for _, p := range res.Created {
		if strings.Contains(f.file(p), alone) {
			citing = append(citing, p)
		}
	}
	if !slices.Equal(citing, []string{"knowledge/decisions/cookies-are-secure.md"}) {
		t.Errorf("the decision that names no subject and means none is cited by %q, want an article of its own", citing)
	}
	lifetime := f.file(f.articleAt("token-lifetime"))
	for _, id := range []string{signed, loose} {
		if !strings.Contains(lifetime, id) {
			t.Errorf("the token-lifetime article does not cite %s:\n%s", id, lifetime)
		}
	}
	for _, id := range []string{other, elsewhere} {
		if strings.Contains(lifetime, id) {
			t.Errorf("the token-lifetime article cites %s, which means something else or is of another domain:\n%s", id, lifetime)
		}
	}
	if auth := f.file(f.articleAt("auth")); !strings.Contains(auth, other) || strings.Contains(auth, loose) {
		t.Errorf("the auth article should hold the cookie learning alone:\n%s", auth)
	}
}

// articleAt is the path of the article slug on global, in whatever topic
// it was filed.
func (f *fixture) articleAt(slug string) string {
	f.t.Helper()
	for _, topic := range DefaultTopics {
		if p := changelog.ArticlePath(topic, slug); f.has(p) {
			return p
		}
	}
	f.t.Fatalf("no article %s on global", slug)
	return ""
}

// An article of a domain's learnings that name no subject gathers the first
// MaxDomainSources of them, and no more at the next update: the rest stay
// records.
func TestDomainArticleIsBounded(t *testing.T) {
	f := newFixture(t)
	var recs []*changelog.Record
	at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := range MaxDomainSources + 5 {
		r, err := changelog.NewLearning(changelog.LearningInput{Text: fmt.Sprintf("Build step %d runs before step %d.", i, i+1), Type: changelog.TypeConvention, Domain: "build"})
		if err != nil {
			t.Fatal(err)
		}
		r.Agent, r.Timestamp = "auth", at.Add(time.Duration(i)*time.Minute)
		r.ID = changelog.NewID(r.Agent, r.Kind, r.Body, r.Timestamp)
		recs = append(recs, r)
	}
	if _, err := f.store.CommitGlobal(f.ctx, agent.GlobalChange{Writer: "auth", Records: recs, Message: "many\n"}); err != nil {
		t.Fatal(err)
	}
	f.update()
	build := f.file(f.articleAt("build"))
	cited := func(text string) int {
		n := 0
		for _, r := range recs {
			if strings.Contains(text, r.ID) {
				n++
			}
		}
		return n
	}
	if got := cited(build); got != MaxDomainSources {
		t.Errorf("the build article cites %d of the %d learnings, want the first %d", got, len(recs), MaxDomainSources)
	}
	if !strings.Contains(build, recs[0].ID) || strings.Contains(build, recs[len(recs)-1].ID) {
		t.Error("the build article should cite the oldest learnings, not the newest")
	}
	f.learn("Build step 999 runs last.", changelog.TypeConvention, "build", "")
	f.update()
	if got := cited(f.file(f.articleAt("build"))); got != MaxDomainSources {
		t.Errorf("after one more, the build article cites %d, want still %d", got, MaxDomainSources)
	}
}
