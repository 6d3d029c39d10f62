package importing

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/internal/testkit/testgit"
	"github.com/planq-dev/planq/staterepo"
)

func readTestdata(t *testing.T, name string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "bootstrap", name))
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

func TestADRNygardIsADecisionWithItsRationale(t *testing.T) {
	p, err := adrPiece("docs/adr/0002-use-postgresql.md", readTestdata(t, "nygard.md"))
	if err != nil {
		t.Fatal(err)
	}
	r := p.Record
	if r.Kind != changelog.KindDecision || r.Decision != "We will use PostgreSQL for sessions and jobs." || r.Subject != "Use PostgreSQL" {
		t.Fatalf("decision %q, subject %q", r.Decision, r.Subject)
	}
	if r.Rationale != "Sessions must survive a restart and jobs need transactions." {
		t.Errorf("rationale %q: the context", r.Rationale)
	}
	if !strings.Contains(r.Body, "Consequences: Every developer runs a database server.") {
		t.Errorf("body without the consequences:\n%s", r.Body)
	}
	if r.Origin != "adr:docs/adr/0002-use-postgresql.md" || !r.Timestamp.Equal(time.Date(2023, 2, 1, 0, 0, 0, 0, time.UTC)) {
		t.Errorf("origin %q, time %v", r.Origin, r.Timestamp)
	}
	if p.SupersededBy != "adr:docs/adr/0003-use-sqlite.md" || !slices.Contains(r.Tags, "adr:superseded") {
		t.Errorf("superseded by %q, tags %v", p.SupersededBy, r.Tags)
	}
}

// A Decision section that opens with a subheading (a real ADR's "###
// Enforcement patterns") goes on below it: the decision is its first
// paragraph there, not the ADR's title.
func TestADRDecisionUnderASubheading(t *testing.T) {
	p, err := adrPiece("docs/internal/adr/ADR-0115-egress.md", "# ADR-0115: Mandatory Egress Enforcement\n\n## Status\n\nAccepted\n\n"+
		"## Decision\n\n### Enforcement patterns\n\nDefine two complementary enforcement patterns for agent egress.\n\n#### Pattern A\n\nThe control plane intercepts calls.\n\n"+
		"## Consequences\n\nOperators choose a pattern.\n")
	if err != nil {
		t.Fatal(err)
	}
	if r := p.Record; r.Decision != "Define two complementary enforcement patterns for agent egress." || r.Subject != "Mandatory Egress Enforcement" {
		t.Errorf("decision %q, subject %q", r.Decision, r.Subject)
	}
}

func TestADRMADRTakesTheChosenOptionAndItsReason(t *testing.T) {
	p, err := adrPiece("docs/adr/0003-use-sqlite.md", readTestdata(t, "madr.md"))
	if err != nil {
		t.Fatal(err)
	}
	r := p.Record
	if r.Decision != "Use SQLite" || r.Rationale != "it runs in the process and needs no server" {
		t.Fatalf("decision %q, rationale %q", r.Decision, r.Rationale)
	}
	if !slices.Equal(r.Alternatives, []string{"PostgreSQL", "a JSON file"}) {
		t.Errorf("alternatives %q", r.Alternatives)
	}
	if !r.Timestamp.Equal(time.Date(2024, 3, 5, 0, 0, 0, 0, time.UTC)) {
		t.Errorf("time %v: the frontmatter's date", r.Timestamp)
	}
}

// TestADRMADRReasonsAsAList: 'Chosen option: "X", because' followed by a
// list lost the reasons and listed the chosen option among the
// alternatives; MADR's template reason "comes out best (see below)" was
// taken as the rationale.
func TestADRMADRReasonsAsAList(t *testing.T) {
	p, err := adrPiece("docs/decisions/0004-queue.md", readTestdata(t, "madr-list.md"))
	if err != nil {
		t.Fatal(err)
	}
	r := p.Record
	if r.Decision != "Use a message queue for order events: RabbitMQ" {
		t.Errorf("decision %q", r.Decision)
	}
	if r.Rationale != "it acknowledges each message, so a restart loses none; the team runs it already" {
		t.Errorf("rationale %q: the list after the chosen option", r.Rationale)
	}
	if want := []string{"Kafka - the log everyone knows", "Direct HTTP calls"}; !slices.Equal(r.Alternatives, want) {
		t.Errorf("alternatives %q, want %q", r.Alternatives, want)
	}
	p, err = adrPiece("docs/decisions/0005-sessions.md", readTestdata(t, "madr-template.md"))
	if err != nil {
		t.Fatal(err)
	}
	r = p.Record
	if r.Decision != "Store sessions in Redis" || r.Rationale != "sessions survive a restart of the web tier" {
		t.Errorf("decision %q, rationale %q: the template's placeholder is no reason; the chosen option's pros are", r.Decision, r.Rationale)
	}
	if !slices.Equal(r.Alternatives, []string{"Memcached"}) {
		t.Errorf("alternatives %q", r.Alternatives)
	}
}

func TestADRMADRBulletStatusAndRejection(t *testing.T) {
	doc := "# Use Kafka\n\n* Status: rejected\n* Date: 2022-05-01\n\n## Decision Outcome\n\nChosen option: \"Kafka\", because it scales.\n"
	if _, err := adrPiece("doc/adr/0007-kafka.md", doc); err == nil || !strings.Contains(err.Error(), "did not take") {
		t.Fatalf("a rejected ADR: %v", err)
	}
	doc = strings.Replace(doc, "rejected", "superseded by [ADR-0009](0009-nats.md)", 1)
	p, err := adrPiece("doc/adr/0007-kafka.md", doc)
	if err != nil {
		t.Fatal(err)
	}
	if p.SupersededBy != "adr:doc/adr/0009-nats.md" || p.Record.Decision != "Use Kafka" {
		t.Errorf("superseded by %q, decision %q", p.SupersededBy, p.Record.Decision)
	}
}

func TestADRBrokenFrontmatterNamesItsLine(t *testing.T) {
	_, err := adrPiece("docs/adr/0001-x.md", "---\nstatus: accepted\ndate: a: b\n---\n# X\n")
	var le *lineError
	if err == nil || !errors.As(err, &le) || le.line != 3 {
		t.Fatalf("got %v", err)
	}
}

func TestADRSourceLinksSupersessionsAndSkipsBinaries(t *testing.T) {
	code := t.TempDir()
	dir := filepath.Join(code, "docs", "adr")
	write(t, filepath.Join(dir, "0002-use-postgresql.md"), readTestdata(t, "nygard.md"))
	write(t, filepath.Join(dir, "0003-use-sqlite.md"), readTestdata(t, "madr.md"))
	write(t, filepath.Join(dir, "README.md"), "# ADRs\n\n- an index\n")
	write(t, filepath.Join(dir, "0004-blob.md"), "\x00\x01binary")
	write(t, filepath.Join(dir, "diagram.png"), "\x89PNG\x00")
	f, err := adrSource(t.Context(), code, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Pieces) != 2 || f.Read != 4 {
		t.Fatalf("%d pieces of %d files read", len(f.Pieces), f.Read)
	}
	if f.Pieces[1].Supersedes != "adr:docs/adr/0002-use-postgresql.md" {
		t.Errorf("0003 supersedes %q", f.Pieces[1].Supersedes)
	}
	var why []string
	for _, s := range f.Skipped {
		why = append(why, s.File+": "+s.Why)
	}
	want := []string{"docs/adr/0004-blob.md: a binary file", "docs/adr/diagram.png: not a Markdown file"}
	if !slices.Equal(why, want) {
		t.Errorf("skipped %q, want %q", why, want)
	}
}

func TestCommitPiecesReadWhatTheMessageStates(t *testing.T) {
	at := time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC)
	hash := strings.Repeat("ab", 20)
	c := staterepo.LoggedCommit{Hash: hash, Time: at, Message: "feat(auth): sign tokens\n\nWe chose RS256 over HS256 because\npublic keys can be shared.\n\n" +
		"Decision: rotate keys every 90 days\nRationale: a leaked key must expire.\nAlternatives: never, yearly.\n"}
	ps := commitPieces(c)
	if len(ps) != 2 {
		t.Fatalf("%d pieces", len(ps))
	}
	chose, rotate := ps[0].Record, ps[1].Record
	if chose.Decision != "Chose RS256 over HS256" || chose.Rationale != "public keys can be shared" || !slices.Equal(chose.Alternatives, []string{"HS256"}) {
		t.Errorf("chose: %q because %q over %q", chose.Decision, chose.Rationale, chose.Alternatives)
	}
	if rotate.Decision != "Rotate keys every 90 days" || rotate.Rationale != "a leaked key must expire." || !slices.Equal(rotate.Alternatives, []string{"never", "yearly"}) {
		t.Errorf("rotate: %q because %q over %q", rotate.Decision, rotate.Rationale, rotate.Alternatives)
	}
	if chose.Origin != "git:"+hash || rotate.Origin != "git:"+hash+"#2" || chose.Subject != "auth" || !chose.Timestamp.Equal(at) {
		t.Errorf("origins %q %q, subject %q, time %v", chose.Origin, rotate.Origin, chose.Subject, chose.Timestamp)
	}
	if ps := commitPieces(staterepo.LoggedCommit{Hash: hash, Time: at, Message: "fix: a typo\n\nNothing decided here."}); ps != nil {
		t.Errorf("a commit that states nothing made %d pieces", len(ps))
	}
}

func TestCommitPiecesReadAReverted(t *testing.T) {
	hash := strings.Repeat("cd", 20)
	msg := "Revert \"feat(cache): keep sessions in Redis\"\n\nThis reverts commit 0123456789abcdef0123456789abcdef01234567.\n\nThe cache served stale sessions.\n"
	ps := commitPieces(staterepo.LoggedCommit{Hash: hash, Time: time.Now(), Message: msg})
	if len(ps) != 1 {
		t.Fatalf("%d pieces", len(ps))
	}
	r := ps[0].Record
	want := `Reverted "feat(cache): keep sessions in Redis" in commit cdcdcdcdcdcd (it undid commit 0123456789ab): The cache served stale sessions.`
	if r.Kind != changelog.KindLearning || r.Body != want || r.Domain != "cache" || r.Evidence.Commit != hash {
		t.Errorf("got %s %q in %s, evidence %v", r.Kind, r.Body, r.Domain, r.Evidence)
	}
	if err := changelog.Validate(withAgent(r)); err != nil {
		t.Error(err)
	}
}

// TestCommitPiecesReadRevertsAsGitHubAndConventionalCommitsWriteThem:
// GitHub's squash merge appends the pull request to git's subject, which
// read as if the revert had been undone; a conventional "revert(api):"
// with its reason in the body and no "This reverts commit" line was not
// read at all.
func TestCommitPiecesReadRevertsAsGitHubAndConventionalCommitsWriteThem(t *testing.T) {
	hash := strings.Repeat("ef", 20)
	for _, c := range []struct{ msg, body, domain string }{
		{"Revert \"feat(cache): add the cache (#1)\" (#2)\n\nThis reverts commit 0123456789abcdef0123456789abcdef01234567.\n",
			`Reverted "feat(cache): add the cache (#1)" in commit efefefefefef (it undid commit 0123456789ab).`, "cache"},
		{"revert(api): drop the response cache\n\nClients saw stale prices after an update.\n",
			`Reverted "drop the response cache" in commit efefefefefef: Clients saw stale prices after an update.`, "api"},
		{"Revert: drop the response cache\n\nIt broke the build.\n",
			`Reverted "drop the response cache" in commit efefefefefef: It broke the build.`, "history"},
	} {
		ps := commitPieces(staterepo.LoggedCommit{Hash: hash, Time: time.Now(), Message: c.msg})
		if len(ps) != 1 {
			t.Errorf("%q: %d pieces", c.msg, len(ps))
			continue
		}
		if r := ps[0].Record; r.Body != c.body || r.Domain != c.domain {
			t.Errorf("%q:\ngot  %q in %s\nwant %q in %s", c.msg, r.Body, r.Domain, c.body, c.domain)
		}
	}
	// A conventional commit of another type that says "revert" states none.
	if ps := commitPieces(staterepo.LoggedCommit{Hash: hash, Time: time.Now(), Message: "fix(api): revert to the old timeout\n"}); len(ps) != 0 {
		t.Errorf("a fix that mentions revert made %d pieces: %q", len(ps), ps[0].Record.Body)
	}
}

func withAgent(r *changelog.Record) *changelog.Record {
	c := *r
	c.ID, c.Agent = testID(r.Origin+"x"), "global"
	if c.Timestamp.IsZero() {
		c.Timestamp = time.Now()
	}
	return &c
}

func TestMarkdownItemsAreBulletsAndParagraphsUnderTheirHeadings(t *testing.T) {
	body := "# Project\n\nIntro paragraph with some words.\n\n## Testing\n\n- Run the tests before pushing.\n  They take a minute.\n- Use real git.\n\n" +
		"```sh\nmake test\n```\n\n---\n\n<!-- a comment\nthat spans -->\n## Tiny\n\n- ok\n"
	items := markdownItems(body, 1)
	var got []string
	for _, it := range items {
		got = append(got, it.heading+"|"+it.text)
	}
	want := []string{"Project|Intro paragraph with some words.", "Testing|Run the tests before pushing.\nThey take a minute.",
		"Testing|Use real git.\n```sh\nmake test\n```"}
	if !slices.Equal(got, want) {
		t.Errorf("got %q\nwant %q", got, want)
	}
	if items[1].line != 7 {
		t.Errorf("second item at line %d", items[1].line)
	}
}

func TestMemoryPiecesFactsIndexesAndThePerson(t *testing.T) {
	fact := "---\nname: feedback_testing\ndescription: tests hit a real database\nmetadata:\n  type: feedback\n---\nIntegration tests hit a real database.\n"
	ps, skips, err := memoryPieces("claude-memory:feedback_testing.md", "feedback_testing.md", fact, nil)
	if err != nil || len(skips) != 0 || len(ps) != 1 {
		t.Fatalf("%d pieces, %v, %v", len(ps), skips, err)
	}
	if r := ps[0].Record; r.Subject != "feedback testing" || r.Body != "Integration tests hit a real database." || !strings.HasPrefix(r.Origin, "claude-memory:feedback_testing.md@") || ps[0].Line != 7 {
		t.Errorf("got %q %q %q line %d", r.Subject, r.Body, r.Origin, ps[0].Line)
	}
	_, skips, _ = memoryPieces("claude-memory:user.md", "user.md", "---\ntype: user\n---\nThe person likes tea very much.\n", nil)
	if len(skips) != 1 || !strings.Contains(skips[0].Why, "about the person") {
		t.Errorf("a memory of the person: %v", skips)
	}
	index := "# Memory\n\n- [Testing](feedback_testing.md) - how to test\n- [Gone](gone.md) - a file that is not there\n\n## Build\n\n- The build needs Go 1.24.\n"
	ps, _, err = memoryPieces("claude-memory:MEMORY.md", "MEMORY.md", index, func(l string) bool { return l == "feedback_testing.md" })
	if err != nil || len(ps) != 2 {
		t.Fatalf("%d pieces, %v", len(ps), err)
	}
	if ps[0].Record.Body != "[Gone](gone.md) - a file that is not there" || ps[1].Record.Subject != "Build" {
		t.Errorf("got %q and %q", ps[0].Record.Body, ps[1].Record.Subject)
	}
}

func TestRememberTextIsConservative(t *testing.T) {
	for in, want := range map[string]string{
		"remember that deploys happen on Tuesdays":   "Deploys happen on Tuesdays",
		"Remember: the staging database is shared":   "The staging database is shared",
		"remember to run the linter first":           "Remember to run the linter first",
		"note: builds need 8 GB of memory":           "Builds need 8 GB of memory",
		"remember what we did yesterday?":            "",
		"remember the bug we had":                    "",
		"please fix the note: parser":                "",
		"remember that":                              "",
		"remember that " + strings.Repeat("x ", 600): "",
	} {
		if got := rememberText(in); got != want {
			t.Errorf("rememberText(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestTranscriptsSkipHugeTruncatedAndNonJSONLines(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "s.jsonl")
	var b bytes.Buffer
	b.WriteString(`{"type":"user","message":{"role":"user","content":"remember that the API is versioned by date"},"timestamp":"2024-05-01T10:00:00Z"}` + "\n")
	b.WriteString(`{"type":"user","message":{"role":"user","content":"` + strings.Repeat("a", maxTranscriptLine+10) + `"}}` + "\n")
	b.WriteString("not json at all\n")
	b.WriteString(`{"type":"assistant","message":{"role":"assistant","content":[{"type":"tool_use","name":"Write","input":{"file_path":"/h/.claude/projects/x/memory/db.md","content":"---\nname: db\ndescription: the db\ntype: project\n---\nThe database is SQLite in WAL mode."}}]}}` + "\n")
	b.WriteString(`{"type":"user","message":{"content":"remember that`)
	write(t, file, b.String())
	var f Found
	if err := readTranscript(t.Context(), &f, dir, file, "transcript:claude/s.jsonl", claudeLine, nil); err != nil {
		t.Fatal(err)
	}
	var origins []string
	for _, p := range f.Pieces {
		origins = append(origins, p.Record.Origin+"|"+p.Record.Body)
	}
	if len(origins) != 2 || origins[0] != "transcript:claude/s.jsonl:1|The API is versioned by date" ||
		!strings.HasPrefix(origins[1], "transcript:claude/s.jsonl:4@") || !strings.HasSuffix(origins[1], "|The database is SQLite in WAL mode.") {
		t.Errorf("pieces %q", origins)
	}
	var lines []string
	for _, s := range f.Skipped {
		lines = append(lines, strings.TrimPrefix(s.String(), file))
	}
	want := []string{":2: longer than 1024 KiB: not read", ":3: not JSON", ":5: not JSON (the file ends in the middle of a line)"}
	if !slices.Equal(lines, want) {
		t.Errorf("skipped %q, want %q", lines, want)
	}
}

func TestCodexSessionsOfOtherProjectsAreNotRead(t *testing.T) {
	codex := t.TempDir()
	code := t.TempDir()
	mine := `{"timestamp":"2024-06-01T00:00:00Z","type":"session_meta","payload":{"id":"1","cwd":"` + filepath.Join(code, "sub") + `"}}` + "\n" +
		`{"timestamp":"2024-06-01T00:00:01Z","type":"event_msg","payload":{"type":"user_message","message":"note: releases are cut on Mondays"}}` + "\n" +
		`{"timestamp":"2024-06-01T00:00:01Z","type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"note: releases are cut on Mondays"}]}}` + "\n"
	other := strings.ReplaceAll(mine, filepath.Join(code, "sub"), "/elsewhere") + "broken\n"
	write(t, filepath.Join(codex, "sessions", "2024", "06", "01", "rollout-a.jsonl"), mine)
	write(t, filepath.Join(codex, "sessions", "2024", "06", "01", "rollout-b.jsonl"), other)
	f, err := transcriptSource(t.Context(), Where{Code: code, CodexDir: codex})
	if err != nil {
		t.Fatal(err)
	}
	if f.Read != 1 || len(f.Pieces) != 2 || len(f.Skipped) != 0 {
		t.Fatalf("read %d, %d pieces, skipped %v", f.Read, len(f.Pieces), f.Skipped)
	}
	if f.Pieces[0].Record.Origin != "transcript:codex/2024/06/01/rollout-a.jsonl:2" || f.Pieces[0].Record.Body != "Releases are cut on Mondays" {
		t.Errorf("got %q %q", f.Pieces[0].Record.Origin, f.Pieces[0].Record.Body)
	}
}

func TestClaudeProjectKeyIsThePathWithEveryOtherCharacterADash(t *testing.T) {
	if got := ClaudeProjectKey("/home/me/code/my.app_v2"); got != "-home-me-code-my-app-v2" {
		t.Errorf("got %q", got)
	}
	// JavaScript replaces each UTF-16 code unit: an emoji is two.
	if got := ClaudeProjectKey("/a/é/😀"); got != "-a-----" {
		t.Errorf("got %q", got)
	}
}

// TestClaudeKeyHashIsJavaScripts: the hash is h*31+c over UTF-16 code
// units in 32 bits, as Java's String.hashCode is, whose values are known:
// "hello" is 99162322, "polygenelubricants" the least int32, whose
// absolute value does not fit an int32.
func TestClaudeKeyHashIsJavaScripts(t *testing.T) {
	for in, want := range map[string]string{"hello": "1n1e4y", "polygenelubricants": "zik0zk", "": "0"} {
		if got := claudeKeyHash(in); got != want {
			t.Errorf("claudeKeyHash(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestALongCheckoutPathFindsItsMemory: Claude Code cuts a key over 200
// characters and appends a hash of the path. The folder its JavaScript
// build names is found; so is one a build that hashes otherwise named,
// when it is the only folder with the cut key; two such folders are two
// projects, and neither is read.
func TestALongCheckoutPathFindsItsMemory(t *testing.T) {
	claude := t.TempDir()
	projects := filepath.Join(claude, "projects")
	code := "/home/me/" + strings.Repeat("deep/", 50) + "app"
	key := ClaudeProjectKey(code)
	if len(key) <= 200 || key[:200] != claudeKeyPrefix(code)[:200] || key[200:] != "-"+claudeKeyHash(code) {
		t.Fatalf("key %q", key)
	}
	dirs := func() []string { return claudeProjectDirs(Where{Code: code, ClaudeDir: claude}) }
	write(t, filepath.Join(projects, key, "memory", "MEMORY.md"), "# Memory\n")
	if got := dirs(); len(got) != 1 || got[0] != filepath.Join(projects, key) {
		t.Errorf("with the JavaScript build's folder: %q", got)
	}
	if err := os.RemoveAll(filepath.Join(projects, key)); err != nil {
		t.Fatal(err)
	}
	other := filepath.Join(projects, key[:200]+"-1a2b3c4")
	write(t, filepath.Join(other, "memory", "MEMORY.md"), "# Memory\n")
	if got := dirs(); len(got) != 1 || got[0] != other {
		t.Errorf("with another build's folder: %q", got)
	}
	write(t, filepath.Join(projects, key[:200]+"-zz9", "memory", "MEMORY.md"), "# Memory\n")
	if got := dirs(); len(got) != 0 {
		t.Errorf("two projects share the cut key, and %q was taken", got)
	}
	short := "/home/me/app"
	write(t, filepath.Join(projects, ClaudeProjectKey(short)+"-abc", "memory", "MEMORY.md"), "# Memory\n")
	if got := claudeProjectDirs(Where{Code: short, ClaudeDir: claude}); len(got) != 0 {
		t.Errorf("a short path took a folder with a hash: %q", got)
	}
}

func write(t testing.TB, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// testID is a record ID made of origin, as a bootstrap makes one: the
// pieces carry none, and a record is checked with one.
func testID(origin string) string {
	sum := sha256.Sum256([]byte(origin))
	return changelog.IDPrefix + hex.EncodeToString(sum[:])[:10]
}

// TestADRFoldersAreFoundByTheirNumberedFiles: docs/internal/adr and
// docs/architecture-decisions were not read, and a project could not
// name its own. Any directory named for ADRs or decisions that holds
// numbered Markdown files is read (not an example tree's, not a tutorial's
// numbered chapters); a project's knowledge.adr_dirs is all there is.
func TestADRFoldersAreFoundByTheirNumberedFiles(t *testing.T) {
	testgit.Isolate(t)
	code := t.TempDir()
	testgit.Run(t, code, "init", "-q")
	adr := func(title string) string {
		return "# " + title + "\n\n## Status\n\nAccepted\n\n## Context\n\nWe needed one.\n\n## Decision\n\nWe will " + strings.ToLower(title) + ".\n"
	}
	for rel, text := range map[string]string{
		"docs/internal/adr/0001-use-go.md":                 adr("Use Go"),
		"docs/architecture-decisions/0002-use-postgres.md": adr("Use Postgres"),
		"docs/tutorial/01-getting-started.md":              adr("Read the tutorial"),
		"examples/shop/docs/adr/0001-use-php.md":           adr("Use PHP"),
		"design/records/adr-7.md":                          adr("Use gRPC"),
	} {
		write(t, filepath.Join(code, filepath.FromSlash(rel)), text)
	}
	testgit.Run(t, code, "add", "-A")
	decisions := func(named []string) []string {
		f, err := adrSource(t.Context(), code, named)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, p := range f.Pieces {
			out = append(out, p.File+": "+p.Record.Decision)
		}
		slices.Sort(out)
		return out
	}
	want := []string{"design/records/adr-7.md: We will use grpc.", "docs/architecture-decisions/0002-use-postgres.md: We will use postgres.",
		"docs/internal/adr/0001-use-go.md: We will use go."}
	if got := decisions(nil); !slices.Equal(got, want) {
		t.Errorf("found %q\nwant %q", got, want)
	}
	if got := decisions([]string{"docs/tutorial"}); !slices.Equal(got, []string{"docs/tutorial/01-getting-started.md: We will read the tutorial."}) {
		t.Errorf("the project's own list read %q", got)
	}
}

// TestAnADRWithoutADateDatesFromItsFirstCommit: 46 of a real project's
// 110 ADRs have no date line and were stamped with the day of the
// bootstrap. Such an ADR takes the time of the commit that added it; a
// date line still wins.
func TestAnADRWithoutADateDatesFromItsFirstCommit(t *testing.T) {
	testgit.Isolate(t)
	code := t.TempDir()
	testgit.Run(t, code, "init", "-q")
	write(t, filepath.Join(code, "docs", "adr", "0001-use-go.md"), "# Use Go\n\n## Decision\n\nWe will use Go.\n")
	write(t, filepath.Join(code, "docs", "adr", "0002-use-sqlite.md"), readTestdata(t, "madr.md")) // date: 2024-03-05
	testgit.Run(t, code, "add", "-A")
	testgit.RunEnv(t, append(os.Environ(), "GIT_AUTHOR_DATE=2021-03-04T05:06:07Z"), code, "commit", "-q", "-m", "ADRs")
	write(t, filepath.Join(code, "docs", "adr", "0001-use-go.md"), "# Use Go\n\n## Decision\n\nWe will use Go 1.22.\n")
	testgit.Run(t, code, "commit", "-q", "-am", "a later change")
	f, err := adrSource(t.Context(), code, nil)
	if err != nil {
		t.Fatal(err)
	}
	at := map[string]time.Time{}
	for _, p := range f.Pieces {
		at[p.File] = p.Record.Timestamp
	}
	if got := at["docs/adr/0001-use-go.md"]; !got.Equal(time.Date(2021, 3, 4, 5, 6, 7, 0, time.UTC)) {
		t.Errorf("an ADR without a date: %v, want its first commit's time", got)
	}
	if got := at["docs/adr/0002-use-sqlite.md"]; !got.Equal(time.Date(2024, 3, 5, 0, 0, 0, 0, time.UTC)) {
		t.Errorf("an ADR with a date: %v, want its date", got)
	}
}

// TestSameListIsOneHeadingOfOneFile: items read from one heading of one
// file are of one list; another heading, another file, an origin of no
// heading (a memory file's) or one clipped for its length is not.
func TestSameListIsOneHeadingOfOneFile(t *testing.T) {
	it := func(file, heading, text string) string {
		return itemOrigin("instructions", file, mdItem{heading: heading, text: text})
	}
	for _, c := range []struct {
		a, b string
		want bool
	}{
		{it("AGENTS.md", "Commands", "Tests: npm test"), it("AGENTS.md", "Commands", "Lint: npm run lint"), true},
		{it("AGENTS.md", "Commands", "Tests: npm test"), it("AGENTS.md", "Testing", "Lint: npm run lint"), false},
		{it("AGENTS.md", "Commands", "Tests: npm test"), it("CLAUDE.md", "Commands", "Lint: npm run lint"), false},
		{"claude-memory:db.md@0123abcd", "claude-memory:db.md@4567ef01", false},
		{it(strings.Repeat("deep/", 50)+"AGENTS.md", "Commands", "a"), it(strings.Repeat("deep/", 50)+"AGENTS.md", "Commands", "b"), false},
	} {
		if got := SameList(c.a, c.b); got != c.want {
			t.Errorf("SameList(%q, %q) = %v, want %v", c.a, c.b, got, c.want)
		}
	}
}

// Two ADRs of one number and one title are one decision record written
// twice: the later revises the earlier. Two of one number and two titles
// are two decisions that took the same number.
func TestADRsOfOneNumberAndTitleAreRevisions(t *testing.T) {
	adr := func(file, title, date, decision string) Piece {
		t.Helper()
		p, err := adrPiece(file, "# "+title+"\n\n## Status\n\nAccepted\n\nDate: "+date+"\n\n## Decision\n\n"+decision+"\n")
		if err != nil {
			t.Fatal(err)
		}
		p.File = file
		return p
	}
	pieces := []Piece{
		adr("docs/adr/ADR-0115-egress-model.md", "ADR-0115: Egress Enforcement", "2026-03-02", "Adopt a dual-pattern enforcement model for agent egress."),
		adr("docs/adr/ADR-0115-mandatory-egress.md", "ADR-0115: Egress Enforcement", "2026-03-01", "Define two complementary enforcement patterns for agent egress."),
		adr("docs/adr/0116-cache.md", "Cache results", "2026-03-03", "Cache results for a day."),
		adr("docs/adr/0116-queue.md", "Queue jobs", "2026-03-04", "Queue jobs in Redis."),
	}
	linkSupersessions(pieces)
	if pieces[0].Supersedes != pieces[1].Record.Origin || pieces[1].Supersedes != "" {
		t.Errorf("the later ADR-0115 supersedes %q, the earlier %q; want the earlier's origin, and none", pieces[0].Supersedes, pieces[1].Supersedes)
	}
	if pieces[2].Supersedes != "" || pieces[3].Supersedes != "" {
		t.Errorf("two decisions of one number and two titles: %q, %q", pieces[2].Supersedes, pieces[3].Supersedes)
	}
}
