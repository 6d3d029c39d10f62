package knowledge

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/planq-dev/planq/internal/importing"
	"github.com/planq-dev/planq/internal/testkit/testproject"
)

// TestUnrelatedMemoriesDisputeNothing: every Claude memory of type project
// got the subject "Project context", and every bullet under Codex's
// "# Memory" the subject "Memory", so unrelated memories made one disputed
// article (and 'kb resolve' then set all but one aside). A memory's
// subject is what it is about: its name, else a heading that is more than
// the file's name; never its type or its file's name.
func TestUnrelatedMemoriesDisputeNothing(t *testing.T) {
	p := testproject.New(t, nil)
	home, err := os.UserHomeDir()
	if err != nil {
		t.Fatal(err)
	}
	claude := filepath.Join(home, ".claude")
	mem := filepath.Join(claude, "projects", importing.ClaudeProjectKey(p.Code), "memory")
	write(t, filepath.Join(mem, "db.md"), "---\nname: database_choice\ndescription: the database\ntype: project\n---\nThe database is SQLite in WAL mode.\n")
	write(t, filepath.Join(mem, "release.md"), "---\ndescription: when releases happen\ntype: project\n---\n# Release cadence\n\nReleases are cut from main every Monday.\n")
	codex := t.TempDir()
	write(t, filepath.Join(codex, "memories", "MEMORY.md"), "---\nrollout_summary_files:\n  - 2026-02-12-api.md (success, cwd="+p.Code+
		", updated_at=2026-02-12T10:30:00Z)\ndescription: API conventions\nkeywords: api, handlers\n---\n\n"+
		"- The API is versioned by date in its path.\n- Every handler logs its request ID first.\n")
	res, err := Bootstrap(t.Context(), p.Store, BootstrapOptions{Code: p.Code, ClaudeDir: claude, CodexDir: codex, Writer: "global",
		From: []string{SourceAgentMemories}})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Created) != 4 {
		t.Fatalf("created %+v", res.Created)
	}
	var subjects []string
	for _, c := range res.Created {
		subject, _, ok := strings.Cut(c.Title, ": ")
		if !ok {
			subject = "(none)"
		}
		subjects = append(subjects, subject)
	}
	// The name, else the first heading; a Codex block's description.
	if want := []string{"database choice", "Release cadence", "API conventions", "API conventions"}; !slices.Equal(subjects, want) {
		t.Errorf("subjects %q, want %q", subjects, want)
	}
	if len(res.Articles.Disputed) != 0 {
		t.Errorf("unrelated memories disputed %v", res.Articles.Disputed)
	}
	for _, a := range res.Articles.Created {
		if strings.Contains(a, "project-context") || strings.HasSuffix(a, "/memory.md") {
			t.Errorf("an article named by a memory's type or file: %s", a)
		}
	}
}

// TestBootstrapSkipsFilesItShouldNotRead: an ADR that is a FIFO, a memory
// that is one, a memory linked out of the memory folder and a transcript
// linked to /dev/zero are skipped, each named with why, and the bootstrap
// ends; the good files are read.
func TestBootstrapSkipsFilesItShouldNotRead(t *testing.T) {
	p := testproject.New(t, nil)
	home, err := os.UserHomeDir()
	if err != nil {
		t.Fatal(err)
	}
	claude := filepath.Join(home, ".claude")
	dir := filepath.Join(claude, "projects", importing.ClaudeProjectKey(p.Code))
	mem := filepath.Join(dir, "memory")
	write(t, filepath.Join(p.Code, "docs", "adr", "0002-use-sqlite.md"), readTestdata(t, "madr.md"))
	write(t, filepath.Join(mem, "db.md"), "---\nname: db\ntype: project\n---\nThe database is SQLite in WAL mode.\n")
	outside := filepath.Join(t.TempDir(), "secret.md")
	write(t, outside, "A secret kept outside the memory folder.\n")
	for _, fifo := range []string{filepath.Join(p.Code, "docs", "adr", "0001-x.md"), filepath.Join(mem, "fifo.md"), filepath.Join(dir, "fifo.jsonl")} {
		if out, err := exec.Command("mkfifo", fifo).CombinedOutput(); err != nil {
			t.Skipf("mkfifo: %v %s", err, out)
		}
	}
	if err := os.Symlink(outside, filepath.Join(mem, "secret.md")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("/dev/zero", filepath.Join(dir, "z.jsonl")); err != nil {
		t.Fatal(err)
	}
	type result struct {
		res BootstrapResult
		err error
	}
	done := make(chan result, 1)
	go func() {
		res, err := Bootstrap(t.Context(), p.Store, BootstrapOptions{Code: p.Code, ClaudeDir: claude, Writer: "global", DryRun: true,
			From: []string{SourceADR, SourceAgentMemories, SourceTranscripts}})
		done <- result{res, err}
	}()
	var r result
	select {
	case r = <-done:
	case <-time.After(20 * time.Second):
		t.Fatal("the bootstrap did not end")
	}
	if r.err != nil {
		t.Fatal(r.err)
	}
	var skipped []string
	for _, s := range r.res.Skipped {
		skipped = append(skipped, filepath.Base(s.File)+": "+s.Why)
	}
	slices.Sort(skipped)
	want := []string{
		"0001-x.md: a FIFO, not a regular file: not read",
		"fifo.jsonl: a FIFO, not a regular file: not read",
		"fifo.md: a FIFO, not a regular file: not read",
		"secret.md: a symbolic link to " + realOf(t, outside) + ", outside " + mem + ": not read",
		"z.jsonl: a symbolic link to /dev/zero, outside " + dir + ": not read",
	}
	if !slices.Equal(skipped, want) {
		t.Errorf("skipped %q\nwant %q", skipped, want)
	}
	var origins []string
	for _, c := range r.res.Created {
		origins = append(origins, strings.SplitN(c.Origin, "@", 2)[0])
	}
	if !slices.Equal(origins, []string{"adr:docs/adr/0002-use-sqlite.md", "claude-memory:db.md"}) {
		t.Errorf("created %q", origins)
	}
}

// realOf is path with its links resolved, as a skip names a link's target.
func realOf(t *testing.T, path string) string {
	t.Helper()
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		t.Fatal(err)
	}
	return real
}

// TestItemsOfOneListDisputeNothing: each bullet of an instruction file
// takes its heading as its subject, and "Tests: npm test" and "Lint: npm
// run lint" under "## Commands" made a disputed article (25 of a real
// project's 33). Items of one list, under one heading of one file, never
// contradict each other; the same heading in two files, saying two
// things, still does.
func TestItemsOfOneListDisputeNothing(t *testing.T) {
	p := testproject.New(t, map[string]string{
		"AGENTS.md": "# Agents\n\n## Commands\n\n- Tests: npm test\n- Lint: npm run lint\n- Build: npm run build\n\n## Indentation\n\n- Indent with two spaces.\n",
		"CLAUDE.md": "# Claude\n\n## Indentation\n\n- Indent with tabs.\n",
	})
	// The dry run says which articles the run disputes: the same rule,
	// asked of the same sources.
	dry, err := Bootstrap(t.Context(), p.Store, BootstrapOptions{Code: p.Code, Writer: "global", From: []string{SourceInstructions}, DryRun: true})
	if err != nil {
		t.Fatal(err)
	}
	res, err := Bootstrap(t.Context(), p.Store, BootstrapOptions{Code: p.Code, Writer: "global", From: []string{SourceInstructions}})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Created) != 5 {
		t.Fatalf("created %+v", res.Created)
	}
	if !slices.Equal(res.Articles.Disputed, []string{"knowledge/conventions/indentation.md"}) {
		t.Errorf("disputed %q, want the two files' indentation alone", res.Articles.Disputed)
	}
	if !slices.Equal(dry.Articles.Disputed, res.Articles.Disputed) {
		t.Errorf("the dry run disputed %q, the run %q", dry.Articles.Disputed, res.Articles.Disputed)
	}
}
