package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/rogpeppe/go-internal/testscript"

	"github.com/planq-dev/planq/internal/testkit/scriptenv"
	"github.com/planq-dev/planq/internal/testkit/testgit"
)

// memoRow is a kind added to the kind table, with one field of its own,
// and nothing else.
const memoRow = `	{Kind: "memo", Noun: "memo", Dir: "memos", Shard: ShardByMonth, About: "Memos: a kind added by a test.", Searched: true,
		Generic: true, Extra: []ExtraField{{Key: "audience", Required: true, About: "who the memo is for"}}},
`

// newKindFiles are the files the test changes in its copy of the source,
// each with its change: the steps of changelog/doc.go's recipe that code
// needs (the README's line no build reads; the script is testdata/newkind).
var newKindFiles = map[string]func(t *testing.T, text string) string{
	"changelog/kind.go": func(t *testing.T, text string) string {
		start := strings.Index(text, "var table = []Spec{")
		end := strings.Index(text[max(start, 0):], "\n}\n")
		if start < 0 || end < 0 {
			t.Fatal("changelog/kind.go has no 'var table = []Spec{ ... }' to add a row to")
		}
		at := start + end + 1
		return text[:at] + memoRow + text[at:]
	},
}

// TestKindAddedToTableReachesEveryFrontEnd builds planq from a copy of this
// source with one more row in the kind table (changelog/kind.go), a kind
// with a field of its own, and no other edit, then runs testdata/newkind
// against it: the new kind is written from the command line and over MCP,
// read back from the cache, searched by its field, shown, validated (a
// field of the wrong type, a key no memo has), listed in the CLI help and
// the MCP schema, and gets its directory in a new state repository. The
// files it changes are those changelog/doc.go's recipe names, at most 6.
func TestKindAddedToTableReachesEveryFrontEnd(t *testing.T) {
	t.Parallel()
	recipe := recipeFiles(t)
	if len(recipe) > 6 {
		t.Errorf("changelog/doc.go's recipe for a kind with a field of its own, a command and an MCP tool names %d files, want at most 6: %v", len(recipe), recipe)
	}
	for _, want := range []string{"changelog/kind.go", "README.md", "cli/testdata/script/<kind>.txtar"} {
		if !slices.Contains(recipe, want) {
			t.Errorf("changelog/doc.go's recipe does not name %s: %v", want, recipe)
		}
	}
	src := copySource(t)
	var changed []string
	for rel, change := range newKindFiles {
		if !slices.Contains(recipe, rel) {
			t.Errorf("the test changes %s, which changelog/doc.go's recipe does not name", rel)
		}
		file := filepath.Join(src, filepath.FromSlash(rel))
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(file, []byte(change(t, string(data))), 0o644); err != nil {
			t.Fatal(err)
		}
		changed = append(changed, rel)
	}
	t.Logf("changed %v; the recipe names %v", changed, recipe)
	// planq-newkind hands its servers' commands to the planq-server beside
	// it, built alike; PATH reaches planq-newkind alone (a link), so the
	// build under test finds its own planq-server.
	built, bin := t.TempDir(), t.TempDir()
	build := exec.Command("go", "build", "-o", built+string(os.PathSeparator), "./cmd/planq", "./cmd/planq-server")
	build.Dir = src
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building planq and planq-server with a memo kind: %v\n%s", err, out)
	}
	planq := filepath.Join(bin, "planq-newkind")
	if err := os.Symlink(filepath.Join(built, "planq"), planq); err != nil {
		t.Fatal(err)
	}
	planqs := binDir(t) // planq as built, for what the script compares
	testscript.Run(t, testscript.Params{
		Dir:                 "testdata/newkind",
		RequireExplicitExec: true,
		Setup: func(e *testscript.Env) error {
			e.Setenv("PATH", bin+string(os.PathListSeparator)+planqs+string(os.PathListSeparator)+e.Getenv("PATH"))
			return scriptenv.Setup(e)
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"exits":   scriptenv.Exits,
			"gitrepo": scriptenv.GitRepo,
			"capture": cmdCapture,
			"mcpcall": func(ts *testscript.TestScript, neg bool, args []string) { cmdMCPCall(ts, neg, planq, args) },
		},
	})
}

// recipeFiles are the files the steps of changelog/doc.go's recipe name:
// each step of "Adding a record kind" up to the steps for a kind that
// needs code of its own reads "N. FILE: what to do".
func recipeFiles(t *testing.T) []string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(moduleRoot, "changelog", "doc.go"))
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	start := strings.Index(text, "// # Adding a record kind")
	end := strings.Index(text[max(start, 0):], "// A kind that needs more")
	if start < 0 || end < 0 {
		t.Fatal("changelog/doc.go has no recipe: '# Adding a record kind' ... 'A kind that needs more'")
	}
	var files []string
	for _, m := range recipeStepRE.FindAllStringSubmatch(text[start:start+end], -1) {
		files = append(files, m[1])
	}
	return files
}

var recipeStepRE = regexp.MustCompile(`(?m)^//\s+\d+\. (\S+): `)

// capture NAME [REGEXP]: set NAME to what REGEXP (default: the whole
// output) matches in the last command's stdout, trimmed: its first
// submatch when it has one.
func cmdCapture(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 1 || len(args) > 2 {
		ts.Fatalf("usage: capture NAME [REGEXP]")
	}
	out := ts.ReadFile("stdout")
	value := strings.TrimSpace(out)
	if len(args) == 2 {
		m := regexp.MustCompile(args[1]).FindStringSubmatch(out)
		if m == nil {
			ts.Fatalf("stdout has nothing that matches %s", args[1])
		}
		value = m[len(m)-1]
	}
	ts.Setenv(args[0], value)
}

// mcpcall TOOL ARGS-JSON: call TOOL of 'planq mcp serve' (planq) in the
// current directory, as an MCP client does, and print what it answered;
// with !, the call must fail.
func cmdMCPCall(ts *testscript.TestScript, neg bool, planq string, args []string) {
	if len(args) != 2 {
		ts.Fatalf("usage: mcpcall TOOL ARGS-JSON")
	}
	var env []string
	for _, k := range []string{"PATH", "HOME", "PLANQ_HOME", "GIT_CONFIG_GLOBAL", "GIT_CONFIG_NOSYSTEM", "TZ", "NO_COLOR"} {
		env = append(env, k+"="+ts.Getenv(k))
	}
	cmd := exec.Command(planq, "mcp", "serve", "--project", ts.MkAbs("."))
	cmd.Env = env
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	client := mcp.NewClient(&mcp.Implementation{Name: "newkind-test", Version: "1"}, nil)
	session, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	ts.Check(err)
	defer session.Close()
	res, err := session.CallTool(ctx, &mcp.CallToolParams{Name: args[0], Arguments: json.RawMessage(args[1])})
	var text strings.Builder
	if err != nil {
		text.WriteString(err.Error())
	} else {
		for _, c := range res.Content {
			if tc, ok := c.(*mcp.TextContent); ok {
				text.WriteString(tc.Text)
			}
		}
	}
	fmt.Fprintln(ts.Stdout(), text.String())
	failed := err != nil || res.IsError
	if failed != neg {
		ts.Fatalf("%s answered (failed: %t): %s", args[0], failed, text.String())
	}
}

// copySource copies the module's files (tracked, and new ones git does not
// ignore) into a temporary directory.
func copySource(t *testing.T) string {
	t.Helper()
	root := moduleRoot
	out := testgit.Run(t, root, "ls-files", "--cached", "--others", "--exclude-standard")
	dst := t.TempDir()
	for _, rel := range strings.Split(out, "\n") {
		data, err := os.ReadFile(filepath.Join(root, rel))
		if os.IsNotExist(err) {
			continue // deleted in the working tree, not yet in git
		}
		if err != nil {
			t.Fatal(err)
		}
		target := filepath.Join(dst, rel)
		if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(target, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dst
}
