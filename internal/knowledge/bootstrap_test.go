package knowledge

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/planq-dev/planq/internal/importing"
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
	mem := filepath.Join(claude, "projects", importing.ClaudeProjectKey(p.Code), "memory")
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
