package knowledge

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/internal/testkit/testgit"
	"github.com/planq-dev/planq/internal/testkit/testproject"
	"github.com/planq-dev/planq/project"
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
	r := p.rec
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
	if p.supersededBy != "adr:docs/adr/0003-use-sqlite.md" || !slices.Contains(r.Tags, "adr:superseded") {
		t.Errorf("superseded by %q, tags %v", p.supersededBy, r.Tags)
	}
}

func TestADRMADRTakesTheChosenOptionAndItsReason(t *testing.T) {
	p, err := adrPiece("docs/adr/0003-use-sqlite.md", readTestdata(t, "madr.md"))
	if err != nil {
		t.Fatal(err)
	}
	r := p.rec
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
	if p.supersededBy != "adr:doc/adr/0009-nats.md" || p.rec.Decision != "Use Kafka" {
		t.Errorf("superseded by %q, decision %q", p.supersededBy, p.rec.Decision)
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
	f, err := adrSource(t.Context(), code)
	if err != nil {
		t.Fatal(err)
	}
	if len(f.pieces) != 2 || f.read != 4 {
		t.Fatalf("%d pieces of %d files read", len(f.pieces), f.read)
	}
	if f.pieces[1].supersedes != "adr:docs/adr/0002-use-postgresql.md" {
		t.Errorf("0003 supersedes %q", f.pieces[1].supersedes)
	}
	var why []string
	for _, s := range f.skipped {
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
	chose, rotate := ps[0].rec, ps[1].rec
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
	r := ps[0].rec
	want := `Reverted "feat(cache): keep sessions in Redis" in commit cdcdcdcdcdcd (it undid commit 0123456789ab): The cache served stale sessions.`
	if r.Kind != changelog.KindLearning || r.Body != want || r.Domain != "cache" || r.Evidence.Commit != hash {
		t.Errorf("got %s %q in %s, evidence %v", r.Kind, r.Body, r.Domain, r.Evidence)
	}
	if err := changelog.Validate(withAgent(r)); err != nil {
		t.Error(err)
	}
}

func withAgent(r *changelog.Record) *changelog.Record {
	c := *r
	c.ID, c.Agent = bootID(r.Origin+"x"), "global"
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
	if r := ps[0].rec; r.Subject != "feedback testing" || r.Body != "Integration tests hit a real database." || !strings.HasPrefix(r.Origin, "claude-memory:feedback_testing.md@") || ps[0].line != 7 {
		t.Errorf("got %q %q %q line %d", r.Subject, r.Body, r.Origin, ps[0].line)
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
	if ps[0].rec.Body != "[Gone](gone.md) - a file that is not there" || ps[1].rec.Subject != "Build" {
		t.Errorf("got %q and %q", ps[0].rec.Body, ps[1].rec.Subject)
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
	var f found
	if err := readTranscript(t.Context(), &f, dir, file, "transcript:claude/s.jsonl", claudeLine, nil); err != nil {
		t.Fatal(err)
	}
	var origins []string
	for _, p := range f.pieces {
		origins = append(origins, p.rec.Origin+"|"+p.rec.Body)
	}
	if len(origins) != 2 || origins[0] != "transcript:claude/s.jsonl:1|The API is versioned by date" ||
		!strings.HasPrefix(origins[1], "transcript:claude/s.jsonl:4@") || !strings.HasSuffix(origins[1], "|The database is SQLite in WAL mode.") {
		t.Errorf("pieces %q", origins)
	}
	var lines []string
	for _, s := range f.skipped {
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
	f, err := transcriptSource(t.Context(), BootstrapOptions{Code: code, CodexDir: codex})
	if err != nil {
		t.Fatal(err)
	}
	if f.read != 1 || len(f.pieces) != 2 || len(f.skipped) != 0 {
		t.Fatalf("read %d, %d pieces, skipped %v", f.read, len(f.pieces), f.skipped)
	}
	if f.pieces[0].rec.Origin != "transcript:codex/2024/06/01/rollout-a.jsonl:2" || f.pieces[0].rec.Body != "Releases are cut on Mondays" {
		t.Errorf("got %q %q", f.pieces[0].rec.Origin, f.pieces[0].rec.Body)
	}
}

func TestClaudeProjectKeyIsThePathWithEveryOtherCharacterADash(t *testing.T) {
	if got := ClaudeProjectKey("/home/me/code/my.app_v2"); got != "-home-me-code-my-app-v2" {
		t.Errorf("got %q", got)
	}
}

// bootstrapProject is a project whose code repository states a decision
// in its history and has an ADR, with Claude Code's memory of it in the
// test's HOME.
func bootstrapProject(t *testing.T) (testproject.Project, BootstrapOptions) {
	t.Helper()
	p := testproject.New(t, map[string]string{
		"docs/adr/0003-use-sqlite.md": readTestdata(t, "madr.md"),
		"AGENTS.md":                   "# Agents\n\n## Testing\n\n- Run the tests before every commit.\n",
	})
	testgit.Run(t, p.Code, "commit", "-q", "--allow-empty", "-m", "feat(storage): sessions\n\nDecision: keep sessions in SQLite\nBecause: one process serves them all.")
	home, err := os.UserHomeDir()
	if err != nil {
		t.Fatal(err)
	}
	claude := filepath.Join(home, ".claude")
	mem := filepath.Join(claude, "projects", ClaudeProjectKey(p.Code), "memory")
	write(t, filepath.Join(mem, "MEMORY.md"), "# Memory\n\n- The build needs Go 1.24 or newer.\n")
	return p, BootstrapOptions{Code: p.Code, ClaudeDir: claude, Writer: "global"}
}

func TestBootstrapWritesOnceAndArticlesCiteTheRecords(t *testing.T) {
	p, opts := bootstrapProject(t)
	ctx := t.Context()
	tip := func() staterepo.Hash {
		h, err := p.Store.Repo.Tip(project.GlobalBranch)
		if err != nil {
			t.Fatal(err)
		}
		return h
	}
	before := tip()
	dry := opts
	dry.DryRun = true
	res, err := Bootstrap(ctx, p.Store, dry)
	if err != nil {
		t.Fatal(err)
	}
	if tip() != before || len(res.Created) != 4 || res.Commit != "" {
		t.Fatalf("dry run: %d created, commit %q, global moved %v", len(res.Created), res.Commit, tip() != before)
	}
	if !slices.Contains(res.Articles.Created, "knowledge/decisions/use-sqlite.md") {
		t.Errorf("dry run's articles: %v", res.Articles.Created)
	}
	res, err = Bootstrap(ctx, p.Store, opts)
	if err != nil {
		t.Fatal(err)
	}
	var origins []string
	for _, c := range res.Created {
		origins = append(origins, c.Source+" "+strings.SplitN(c.Origin, "@", 2)[0])
	}
	want := []string{"git git:" + testgit.Run(t, p.Code, "rev-parse", "HEAD"), "adr adr:docs/adr/0003-use-sqlite.md",
		"instructions instructions:AGENTS.md#testing", "agent-memories claude-memory:MEMORY.md#memory"}
	if !slices.Equal(origins, want) {
		t.Fatalf("created %q\nwant %q", origins, want)
	}
	if res.Commit == "" || !res.Articles.Changed() {
		t.Fatalf("commit %q, articles %+v", res.Commit, res.Articles)
	}
	sqlite := res.Created[1].ID
	data, err := p.Store.Records.FileAt(tip(), "knowledge/decisions/use-sqlite.md")
	if err != nil || !strings.Contains(string(data), sqlite) {
		t.Fatalf("the article does not cite %s (%v):\n%s", sqlite, err, data)
	}
	again, err := Bootstrap(ctx, p.Store, opts)
	if err != nil {
		t.Fatal(err)
	}
	if len(again.Created) != 0 || again.Commit != "" || again.Articles.Changed() {
		t.Errorf("again: %d created, commit %q, articles %+v", len(again.Created), again.Commit, again.Articles)
	}
	present := 0
	for _, c := range again.Sources {
		present += c.Present
	}
	if present != 4 {
		t.Errorf("again: %d present, want 4", present)
	}
}

func TestBootstrapSkipsACredentialAndWritesTheRest(t *testing.T) {
	p, opts := bootstrapProject(t)
	token := "ghp_" + strings.Repeat("a1B2", 9)
	testgit.Run(t, p.Code, "commit", "-q", "--allow-empty", "-m", "ci: deploy\n\nDecision: deploy with the token "+token+"\nBecause: it works.")
	opts.From = []string{SourceGit}
	res, err := Bootstrap(t.Context(), p.Store, opts)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Created) != 1 || len(res.Skipped) != 1 || !strings.HasPrefix(res.Skipped[0].File, "commit ") {
		t.Fatalf("created %d, skipped %+v", len(res.Created), res.Skipped)
	}
	out, _ := json.Marshal(res)
	if strings.Contains(string(out), token) {
		t.Error("the report repeats the credential")
	}
}

func TestBootstrapRefusesAnUnknownSource(t *testing.T) {
	p, opts := bootstrapProject(t)
	opts.From = []string{"wiki"}
	if _, err := Bootstrap(t.Context(), p.Store, opts); err == nil || !strings.Contains(err.Error(), "wiki") {
		t.Fatalf("got %v", err)
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
