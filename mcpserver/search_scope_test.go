package mcpserver_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/planq-dev/planq/agent"
	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/internal/userlayer"
)

// otherProject makes a second planq project beside the test's, named name,
// whose agent learned text; private opts it out.
func otherProject(t *testing.T, name, text string, private bool) {
	t.Helper()
	dir := filepath.Join(t.TempDir(), name)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	steps := [][]string{
		{"git", "init", "-q"}, {"git", "commit", "-q", "--allow-empty", "-m", "init"},
		{"planq", "init", "--project", name}, {"planq", "create", "w", "--here"},
		{"planq", "learn", text, "--type", "reference", "--domain", "release"},
	}
	for _, args := range steps {
		cmd := exec.Command(args[0], args[1:]...)
		if args[0] == "planq" {
			cmd = planqCmd(args[1:]...)
		}
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%v: %v\n%s", args, err, out)
		}
		if private && args[0] == "planq" && args[1] == "init" {
			f, err := os.OpenFile(filepath.Join(dir, ".planq", "config"), os.O_APPEND|os.O_WRONLY, 0)
			if err != nil {
				t.Fatal(err)
			}
			_, _ = f.WriteString("private: true\n")
			_ = f.Close()
		}
	}
}

// TestSearchScopes: planq_search's scope reads this project's branches
// (agent, global, project: the default), the user layer (user), or every
// project that did not opt out and the user layer (all), each hit of a
// search beyond this project labelled by where it came from.
func TestSearchScopes(t *testing.T) {
	dir := project(t)
	learn := planqCmd("learn", "The release checklist of demo is in docs/release.md", "--type", "reference", "--domain", "release")
	learn.Dir = dir
	if out, err := learn.CombinedOutput(); err != nil {
		t.Fatalf("learn: %v\n%s", err, out)
	}
	otherProject(t, "shop", "The release checklist of shop runs make release-check", false)
	otherProject(t, "vault", "The release checklist of vault is secret", true)
	ctx := context.Background()
	l, err := userlayer.Open(ctx, os.Getenv("PLANQ_HOME"))
	if err != nil {
		t.Fatal(err)
	}
	rec, err := changelog.NewLearning(changelog.LearningInput{Text: "Prefers a release checklist in every repository", Type: "convention", Domain: "preferences"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := l.CommitGlobal(ctx, agent.GlobalChange{Writer: "user", Records: []*changelog.Record{rec}, Message: "learn"}); err != nil {
		t.Fatal(err)
	}
	_ = l.Close()

	s := connect(t, "--project", dir)
	search := func(scope string) string {
		t.Helper()
		args := map[string]any{"query": "release checklist"}
		if scope != "" {
			args["scope"] = scope
		}
		text, isErr := callTool(t, s, "planq_search", args)
		if isErr {
			t.Fatalf("planq_search scope %q: %s", scope, text)
		}
		return text
	}
	for _, scope := range []string{"", "project", "agent"} {
		text := search(scope)
		if !strings.Contains(text, "checklist of demo") || strings.Contains(text, "shop") || strings.Contains(text, "Prefers") {
			t.Errorf("scope %q reads beyond this project:\n%s", scope, text)
		}
	}
	if text := search("global"); strings.Contains(text, "checklist of demo") {
		t.Errorf("scope global found the agent's unpromoted record:\n%s", text)
	}
	text := search("user")
	if !strings.Contains(text, "[user layer] ") || !strings.Contains(text, "Prefers a release checklist") || strings.Contains(text, "checklist of demo") || strings.Contains(text, "shop") {
		t.Errorf("scope user:\n%s", text)
	}
	text = search("all")
	for _, want := range []string{"[demo] ", "checklist of demo", "[shop] ", "make release-check", "[user layer] ", "Prefers a release checklist"} {
		if !strings.Contains(text, want) {
			t.Errorf("scope all lacks %q:\n%s", want, text)
		}
	}
	if strings.Contains(text, "vault") {
		t.Errorf("scope all found the project that opted out:\n%s", text)
	}
	if text, isErr := callTool(t, s, "planq_search", map[string]any{"query": "release", "scope": "everywhere"}); !isErr {
		t.Errorf("an unknown scope was accepted:\n%s", text)
	}
}
