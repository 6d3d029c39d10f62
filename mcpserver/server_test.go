package mcpserver_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/planq-dev/planq/cli"
	"github.com/planq-dev/planq/internal/testkit/testgit"
	"github.com/planq-dev/planq/mcpserver"
)

// planqBin is planq: this test binary, which serves as planq when
// servingVar is set. The server then runs with the coverage and race
// detection the tests were built with, and its coverage counts.
var planqBin string

const servingVar = "PLANQ_MCP_TEST_AS_PLANQ"

func TestMain(m *testing.M) {
	if os.Getenv(servingVar) == "1" {
		os.Exit(cli.MainServing(cli.Servers{MCP: mcpserver.Serve, MCPTools: mcpserver.ToolsJSON})) // planq-server, for its MCP server
	}
	exe, err := os.Executable()
	if err != nil {
		panic(err)
	}
	planqBin = exe
	os.Exit(m.Run())
}

// planqCmd is a planq process: this binary, told to serve as planq. Only
// the processes the tests start are told, never this one's environment,
// which the fuzzing engine's workers inherit.
func planqCmd(args ...string) *exec.Cmd {
	cmd := exec.Command(planqBin, args...)
	cmd.Env = append(os.Environ(), servingVar+"=1")
	return cmd
}

// project makes a planq project with agent "a" mounted in it, in a private
// HOME, and returns its directory.
func project(t *testing.T) string {
	t.Helper()
	testgit.Isolate(t)
	dir := filepath.Join(t.TempDir(), "app")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"git", "init", "-q"}, {"git", "commit", "-q", "--allow-empty", "-m", "init"},
		{planqBin, "init", "--project", "demo"}, {planqBin, "create", "a", "--here"},
	} {
		cmd := exec.Command(args[0], args[1:]...)
		if args[0] == planqBin {
			cmd = planqCmd(args[1:]...)
		}
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%v: %v\n%s", args, err, out)
		}
	}
	return dir
}

func connect(t *testing.T, args ...string) *mcp.ClientSession {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	client := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil)
	cmd := planqCmd(append([]string{"mcp", "serve"}, args...)...)
	cmd.Dir = os.TempDir() // never the project: the server must not rely on it
	session, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { session.Close() })
	return session
}

func callTool(t *testing.T, s *mcp.ClientSession, name string, args map[string]any) (string, bool) {
	t.Helper()
	res, err := s.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		// Arguments the schema rejects come back as protocol errors in
		// some SDK versions and tool errors in others: both are refusals.
		return err.Error(), true
	}
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String(), res.IsError
}

func TestToolsOverARealProcess(t *testing.T) {
	dir := project(t)
	s := connect(t, "--project", dir)

	tools, err := s.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"planq_context", "planq_scratch", "planq_log", "planq_learn", "planq_decide", "planq_checkpoint", "planq_handoff", "planq_search", "planq_get", "planq_query", "planq_edit", "planq_retract", "planq_revalidate", "planq_note", "planq_curate", "planq_propose"}
	got := map[string]*mcp.Tool{}
	for _, tool := range tools.Tools {
		got[tool.Name] = tool
	}
	for _, name := range want {
		if got[name] == nil {
			t.Fatalf("tool %s missing; have %v", name, keys(got))
		}
	}
	// Annotations and the size of the list: TestEveryToolCarriesAnnotations
	// and TestToolListFitsItsBudget.

	text, isErr := callTool(t, s, "planq_learn", map[string]any{"insight": "Tokens expire after 15 minutes", "type": "pattern", "domain": "auth"})
	if isErr || !strings.Contains(text, "recorded learning pq-") || !strings.Contains(text, "Next: planq_get") {
		t.Fatalf("planq_learn: %v %s", isErr, text)
	}
	learned := recordID.FindString(text)
	steps := []struct {
		tool string
		args map[string]any
		want string
	}{
		{"planq_log", map[string]any{"message": "Added JWT validation", "type": "implement", "status": "completed"}, "recorded log pq-"},
		{"planq_log", map[string]any{}, "Added JWT validation"},
		{"planq_decide", map[string]any{"decision": "Use RS256", "over": []string{"HS256"}, "because": "public keys"}, "recorded decision pq-"},
		{"planq_handoff", map[string]any{"message": "Continue with the API tests"}, "recorded handoff pq-"},
		{"planq_scratch", map[string]any{"append": "remember the refresh path"}, "remember the refresh path"},
		{"planq_checkpoint", map[string]any{"name": "cp1", "note": "green"}, "recorded checkpoint pq-"},
		{"planq_context", map[string]any{}, "Continue with the API tests"},
		{"planq_search", map[string]any{"query": "tokens expire"}, "learnings/auth/pq-"},
		{"planq_search", map[string]any{"query": "RS256", "kinds": []string{"decision"}}, "Next: planq_get"},
		{"planq_search", map[string]any{"query": "tokens expire", "explain": true}, "lexical #1 "},
		{"planq_search", map[string]any{"query": "tokens expire", "queries": []string{"token lifetime"}, "explain": true}, "(vector channel o"},
		{"planq_get", map[string]any{"path": "scratch.md"}, "remember the refresh path"},
		{"planq_query", map[string]any{"domains": []string{"auth"}}, "[auth/pattern] Tokens expire after 15 minutes — learnings/auth/pq-"},
		{"planq_query", map[string]any{"all": true, "types": []string{"failure"}}, "Next: planq_query"},
		{"planq_note", map[string]any{"text": "the dashboard builds with make dash, not npm run build", "type": "operational"}, "recorded note pq-"},
	}
	results := map[string]string{}
	for _, st := range steps {
		text, isErr := callTool(t, s, st.tool, st.args)
		if isErr || !strings.Contains(text, st.want) {
			t.Fatalf("%s %v: error=%v, want %q in:\n%s", st.tool, st.args, isErr, st.want, text)
		}
		results[fmt.Sprintf("%s %v", st.tool, st.args)] = text
	}
	// Every "Next:" call a result suggests is valid as printed: run them all.
	ranNext := 0
	for from, text := range results {
		ranNext += runNext(t, s, from, text)
	}
	if ranNext < len(steps) {
		t.Errorf("only %d Next calls in %d results", ranNext, len(steps))
	}

	// A search result is a snippet of at most 700 characters with a line range.
	text, _ = callTool(t, s, "planq_search", map[string]any{"query": "tokens"})
	line := strings.SplitN(strings.SplitN(text, "\n\n", 2)[1], "\n", 2)[0]
	if !strings.Contains(line, ".md:") || !strings.Contains(line, "-") {
		t.Errorf("search result does not name file and line range: %q", line)
	}
	// An edit writes a new version; the old one is then refused; a
	// retraction takes the new one back, and query no longer shows it.
	text, isErr = callTool(t, s, "planq_edit", map[string]any{"id": learned, "classification": "foundational"})
	edited := recordID.FindString(text)
	if isErr || !strings.Contains(text, "recorded learning pq-") || edited == learned {
		t.Fatalf("planq_edit: %v %s", isErr, text)
	}
	if text, isErr = callTool(t, s, "planq_edit", map[string]any{"id": learned, "text": "x"}); !isErr || !strings.Contains(text, "superseded by "+edited) {
		t.Fatalf("planq_edit of the old version: %v %s", isErr, text)
	}
	if text, _ = callTool(t, s, "planq_query", map[string]any{"domains": []string{"auth"}}); !strings.Contains(text, "[auth/pattern] Tokens expire after 15 minutes — learnings/auth/"+edited) {
		t.Fatalf("query after the edit does not show the new version %s:\n%s", edited, text)
	}
	if text, isErr = callTool(t, s, "planq_retract", map[string]any{"id": edited, "reason": "measured wrong"}); isErr || !strings.Contains(text, "recorded learning pq-") {
		t.Fatalf("planq_retract: %v %s", isErr, text)
	}
	if text, _ = callTool(t, s, "planq_query", map[string]any{"domains": []string{"auth"}}); strings.Contains(text, "Tokens expire") {
		t.Fatalf("query shows a retracted learning:\n%s", text)
	}
	// get still reads both versions, and says what became of each.
	text, isErr = callTool(t, s, "planq_get", map[string]any{"path": "learnings/auth/" + edited + ".md"})
	if isErr || !strings.HasPrefix(text, "(retracted by pq-") || !strings.Contains(text, "Tokens expire") {
		t.Fatalf("planq_get of a retracted learning: want it read and said retracted, got %v:\n%s", isErr, text)
	}
	text, isErr = callTool(t, s, "planq_get", map[string]any{"path": "learnings/auth/" + learned + ".md"})
	if isErr || !strings.HasPrefix(text, "(superseded by "+edited+": planq_get {\"path\": \"learnings/auth/"+edited+".md\"} reads the newer version)") {
		t.Fatalf("planq_get of a superseded learning: want it said superseded, got %v:\n%s", isErr, text)
	}
	if text, isErr = callTool(t, s, "planq_retract", map[string]any{"id": edited}); !isErr || !strings.Contains(text, "retracted already") {
		t.Fatalf("planq_retract twice: %v %s", isErr, text)
	}
	// A note, curated: the proposal is kept once, and its note is proposed.
	text, _ = callTool(t, s, "planq_note", map[string]any{"text": "run the overlay tests with --race"})
	note := recordID.FindString(text)
	proposal := map[string]any{"proposed_files": map[string]any{"AGENTS.md": "# Agents\n\nRun the overlay tests with `--race`.\n"},
		"diff_summary": "AGENTS.md: --race", "entries_used": []string{note}}
	if text, isErr = callTool(t, s, "planq_propose", proposal); isErr || !strings.Contains(text, "kept proposal pq-") {
		t.Fatalf("planq_propose: %v %s", isErr, text)
	}
	if text, isErr = callTool(t, s, "planq_propose", proposal); !isErr || !strings.Contains(text, "arrived already") {
		t.Fatalf("planq_propose twice: %v %s", isErr, text)
	}
	// The record written is in git, and git agrees the worktree is clean.
	if status := testgit.Run(t, filepath.Join(dir, ".planq", "agent"), "status", "--porcelain"); status != "" {
		t.Fatalf("agent worktree not clean after MCP writes: %q", status)
	}
}

var recordID = regexp.MustCompile(`pq-[0-9a-f]{10}`)

func TestBadArgumentsAreToolErrorsAndServingGoesOn(t *testing.T) {
	dir := project(t)
	s := connect(t, "--project", dir)
	bad := []struct {
		tool string
		args map[string]any
		want string
	}{
		{"planq_learn", map[string]any{"type": "pattern", "domain": "auth"}, "insight"},
		// Enumerations come from the kind table, in the schema: the refusal lists them.
		{"planq_learn", map[string]any{"insight": "x", "type": "guess", "domain": "auth"}, "convention pattern failure decision reference guide"},
		{"planq_log", map[string]any{"message": "x", "status": "done"}, "pending in_progress completed blocked"},
		{"planq_learn", map[string]any{"insight": "x", "type": "pattern", "domain": "../etc"}, "domain"},
		{"planq_learn", map[string]any{"insight": strings.Repeat("big ", 20000), "type": "pattern", "domain": "auth"}, "64 KiB"},
		{"planq_log", map[string]any{"message": "key AKIAIOSFODNN7EXAMPLE"}, "credential"},
		{"planq_get", map[string]any{"path": "../../../etc/passwd"}, "not a record"},
		{"planq_get", map[string]any{"path": "/etc/passwd"}, "not a record"},
		{"planq_get", map[string]any{"path": "log/2026-11/pq-0000000000.md"}, "no file"},
		{"planq_get", map[string]any{"path": "scratch.md", "from": 5, "to": 2}, "no range"},
		{"planq_scratch", map[string]any{"append": "a", "replace": "b"}, "append and replace do not go together"},
		{"planq_handoff", map[string]any{"message": "x", "to": "ghost"}, "does not exist"},
		{"planq_search", map[string]any{"query": ""}, "query"},
		{"planq_search", map[string]any{"query": "x", "kinds": []string{"memo"}}, "log learning decision handoff checkpoint"},
		{"planq_decide", map[string]any{"decision": "Use X"}, "because"},
		{"planq_checkpoint", map[string]any{"name": "a b"}, "white space"},
		{"planq_context", map[string]any{"agent": "ghost"}, "does not exist"},
		{"planq_query", map[string]any{}, "names no domain"},
		{"planq_query", map[string]any{"all": true, "classifications": []string{"eternal"}}, "foundational tactical observational"},
		// Issue 25, item 18: values that were taken silently.
		{"planq_search", map[string]any{"query": "x", "limit": -3}, "limit: -3 is not a number of results from 1 to 50"},
		{"planq_search", map[string]any{"query": "x", "limit": 999}, "limit: 999 is not a number of results from 1 to 50"},
		{"planq_search", map[string]any{"query": "x", "domains": []string{"../../x"}}, `domain "../../x": name contains a path separator`},
		{"planq_query", map[string]any{"domains": []string{"../../x"}}, `domain "../../x": name contains a path separator`},
	}
	for _, b := range bad {
		text, isErr := callTool(t, s, b.tool, b.args)
		if !isErr || !strings.Contains(text, b.want) {
			t.Errorf("%s %v: error=%v, want a tool error mentioning %q, got:\n%s", b.tool, trim(b.args), isErr, b.want, text)
		}
	}
	if text, isErr := callTool(t, s, "planq_context", map[string]any{}); isErr || !strings.Contains(text, "agent a") {
		t.Fatalf("server stopped serving after bad arguments: %v %s", isErr, text)
	}
}

func TestProjectFromVariableNotWorkingDirectory(t *testing.T) {
	dir := project(t)
	t.Setenv("CLAUDE_PROJECT_DIR", dir)
	s := connect(t)
	if text, isErr := callTool(t, s, "planq_context", map[string]any{}); isErr || !strings.Contains(text, "agent a") {
		t.Fatalf("planq_context via CLAUDE_PROJECT_DIR: %v %s", isErr, text)
	}
}

func keys(m map[string]*mcp.Tool) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

func trim(args map[string]any) map[string]any {
	out := map[string]any{}
	for k, v := range args {
		if s, ok := v.(string); ok && len(s) > 40 {
			v = s[:40] + "..."
		}
		out[k] = v
	}
	return out
}

func TestServingSurvivesGitGC(t *testing.T) {
	dir := project(t)
	s := connect(t, "--project", dir)
	if _, isErr := callTool(t, s, "planq_learn", map[string]any{"insight": "before gc", "type": "guide", "domain": "ops"}); isErr {
		t.Fatal("planq_learn failed")
	}
	// Repack everything, deleting the loose objects the server has seen.
	state := filepath.Join(os.Getenv("PLANQ_HOME"), "state-repos", "demo.git")
	testgit.Run(t, state, "gc", "--quiet", "--prune=now")
	if text, isErr := callTool(t, s, "planq_log", map[string]any{"message": "after gc"}); isErr {
		t.Fatalf("planq_log after git gc: %s", text)
	}
	if text, isErr := callTool(t, s, "planq_search", map[string]any{"query": "before gc"}); isErr || !strings.Contains(text, "learnings/ops/") {
		t.Fatalf("planq_search after git gc: %v %s", isErr, text)
	}
}

// rawSession speaks raw JSON-RPC to a server for the project in dir, one
// line at a time.
type rawSession struct {
	t     *testing.T
	stdin io.WriteCloser
	dec   *json.Decoder
}

type rawResponse struct {
	ID    json.RawMessage `json:"id"`
	Error *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
	Result json.RawMessage `json:"result"`
}

// startRaw starts a server and initializes it with protocol version.
func startRaw(t *testing.T, dir, version string) *rawSession {
	t.Helper()
	cmd := planqCmd("mcp", "serve", "--project", dir)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	t.Cleanup(func() {
		_ = stdin.Close()
		select {
		case err := <-exited:
			if err != nil {
				t.Errorf("the server exited with %v", err)
			}
		case <-time.After(20 * time.Second):
			_ = cmd.Process.Kill()
			t.Error("the server did not stop at the end of its input")
		}
	})
	go func() { exited <- cmd.Wait() }()
	s := &rawSession{t: t, stdin: stdin, dec: json.NewDecoder(stdout)}
	init := s.ask(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"` + version + `","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`)
	if init.Error != nil || !strings.Contains(string(init.Result), `"protocolVersion":"`+version+`"`) {
		t.Fatalf("initialize with %s: %+v %s", version, init.Error, init.Result)
	}
	s.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	return s
}

func (s *rawSession) send(line string) {
	s.t.Helper()
	if _, err := io.WriteString(s.stdin, line+"\n"); err != nil {
		s.t.Fatal(err)
	}
}

// ask sends a line and reads the one line that answers it.
func (s *rawSession) ask(line string) rawResponse {
	s.t.Helper()
	s.send(line)
	got := make(chan rawResponse, 1)
	failed := make(chan error, 1)
	go func() {
		var r rawResponse
		if err := s.dec.Decode(&r); err != nil {
			failed <- err
			return
		}
		got <- r
	}()
	select {
	case r := <-got:
		return r
	case err := <-failed:
		s.t.Fatalf("no answer to %s: %v (did the server exit?)", clip(line), err)
	case <-time.After(20 * time.Second):
		s.t.Fatalf("no answer to %s in 20 s", clip(line))
	}
	return rawResponse{}
}

// TestBadLinesGetErrorsAndServingGoesOn speaks raw JSON-RPC to the server:
// every line the SDK's reader would stop at (not JSON, no JSON-RPC message,
// an id MCP does not allow, a batch the protocol has no room for, a second
// initialize) is answered with the protocol's error, and the session goes
// on.
func TestBadLinesGetErrorsAndServingGoesOn(t *testing.T) {
	dir := project(t)
	s := startRaw(t, dir, "2025-06-18")
	bad := []struct {
		line string
		code int
		id   string
		want string
	}{
		{`this is not json`, -32700, "null", "not JSON"},
		{"{\"jsonrpc\":\"2.0\",\"id\":\"a\xff\",\"method\":\"ping\"}", -32700, "null", "not UTF-8"},
		{`{"jsonrpc":"2.0","id":3,"method":"ping","params":` + strings.Repeat("[", 1001) + strings.Repeat("]", 1001) + `}`, -32700, "null", "deeper than 1000"},
		{`{"hello":"world","id":7}`, -32600, "7", `"jsonrpc":"2.0"`},
		{`{"JSONRPC":"2.0","id":7,"method":"ping"}`, -32600, "7", `"jsonrpc":"2.0"`},
		{`{"jsonrpc":"2.0","id":8,"method":5}`, -32600, "8", `"method" is a string`},
		{`"ping"`, -32600, "null", "is an object"},
		// Batches ended with protocol 2025-06-18: one error, whatever they hold.
		{`[]`, -32600, "null", "protocol 2025-06-18 has no JSON-RPC batches"},
		{`[{"jsonrpc":"2.0","id":2,"method":"ping"}]`, -32600, "null", "protocol 2025-06-18 has no JSON-RPC batches"},
		// MCP ids are strings or integers; one that is not is not echoed.
		{`{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}`, -32600, "null", `the id {"a":1} is not a string or an integer`},
		{`{"jsonrpc":"2.0","id":[1],"method":"ping"}`, -32600, "null", "the id [1] is not a string or an integer"},
		{`{"jsonrpc":"2.0","id":true,"method":"ping"}`, -32600, "null", "the id true is not a string or an integer"},
		{`{"jsonrpc":"2.0","id":null,"method":"ping"}`, -32600, "null", "never null"},
		{`{"jsonrpc":"2.0","id":1.5,"method":"ping"}`, -32600, "null", "the id 1.5 is not a string or an integer"},
		{`{"jsonrpc":"2.0","id":9007199254740993,"method":"ping"}`, -32600, "null", "is not a string or an integer"},
		{`{"jsonrpc":"2.0","id":"again","method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`, -32600, `"again"`, "initialized already"},
	}
	for _, b := range bad {
		r := s.ask(b.line)
		if r.Error == nil || r.Error.Code != b.code || string(r.ID) != b.id || !strings.Contains(r.Error.Message, b.want) {
			t.Errorf("%s: want error %d with id %s mentioning %q, got id %s %+v %s", clip(b.line), b.code, b.id, b.want, r.ID, r.Error, r.Result)
		}
	}
	// A response the server cannot match is dropped without a word, as
	// JSON-RPC says: the next answer is the next request's.
	s.send(`{"jsonrpc":"2.0","result":{}}`)
	s.send(`{"jsonrpc":"2.0","id":5,"error":"not an object"}`)
	for _, ok := range []struct{ line, id, want string }{
		{`{"jsonrpc":"2.0","id":"p","method":"ping"}`, `"p"`, "{}"},
		{`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`, "2", "planq_search"},
	} {
		if r := s.ask(ok.line); r.Error != nil || string(r.ID) != ok.id || !strings.Contains(string(r.Result), ok.want) {
			t.Errorf("%s after the bad lines: want its answer, got id %s %+v %s", ok.line, r.ID, r.Error, r.Result)
		}
	}
}

// TestBatchesUnderAnOlderProtocol: protocol 2025-03-26 has batches; one
// is answered with an array, and one the SDK could not take with an error.
func TestBatchesUnderAnOlderProtocol(t *testing.T) {
	dir := project(t)
	s := startRaw(t, dir, "2025-03-26")
	for _, b := range []struct{ line, want string }{
		{`[]`, "an empty batch"},
		{`[5]`, "message 1 of the batch: a JSON-RPC message is an object"},
		{`[{"jsonrpc":"2.0","id":2,"method":"ping"},{"jsonrpc":"2.0","id":2,"method":"ping"}]`, "message 2 of the batch: the id 2 is used twice"},
		{`[{"jsonrpc":"2.0","id":2,"method":"ping"},{"jsonrpc":"2.0","id":{},"method":"ping"}]`, "message 2 of the batch: the id {} is not"},
		{`[{"jsonrpc":"2.0","id":3,"method":"initialize","params":{}}]`, "never part of a batch"},
	} {
		if r := s.ask(b.line); r.Error == nil || r.Error.Code != -32600 || string(r.ID) != "null" || !strings.Contains(r.Error.Message, b.want) {
			t.Errorf("%s: want -32600 with id null mentioning %q, got id %s %+v", b.line, b.want, r.ID, r.Error)
		}
	}
	s.send(`[{"jsonrpc":"2.0","id":2,"method":"ping"},{"jsonrpc":"2.0","id":"x","method":"ping"}]`)
	var answers []rawResponse
	if err := s.dec.Decode(&answers); err != nil || len(answers) != 2 || string(answers[0].ID) != "2" || string(answers[1].ID) != `"x"` {
		t.Fatalf("a good batch: want two answers in order, got %v %+v", err, answers)
	}
	if r := s.ask(`{"jsonrpc":"2.0","id":4,"method":"ping"}`); r.Error != nil || string(r.ID) != "4" {
		t.Errorf("ping after the batches: %s %+v", r.ID, r.Error)
	}
}

func clip(s string) string {
	if len(s) > 80 {
		return s[:80] + "..."
	}
	return s
}

func TestOutsideAProjectEveryToolSaysWhy(t *testing.T) {
	testgit.Isolate(t)
	for _, v := range []string{"PLANQ_PROJECT_DIR", "CLAUDE_PROJECT_DIR", "GEMINI_PROJECT_DIR", "CURSOR_PROJECT_DIR"} {
		t.Setenv(v, "")
	}
	s := connect(t) // started in a directory that is no project
	tools, err := s.ListTools(context.Background(), nil)
	if err != nil || len(tools.Tools) < 9 {
		t.Fatalf("outside a project the server must still list its tools: %v", err)
	}
	calls := map[string]map[string]any{
		"planq_context": {},
		"planq_search":  {"query": "x"},
		"planq_learn":   {"insight": "x", "type": "pattern", "domain": "d"},
	}
	for tool, args := range calls {
		text, isErr := callTool(t, s, tool, args)
		if !isErr || !strings.Contains(text, "is not a planq project") || !strings.Contains(text, "planq init") {
			t.Errorf("%s outside a project: want a tool error saying why and what to do, got %v %q", tool, isErr, text)
		}
	}
}

func TestWithoutAnAgentReadingToolsReadGlobal(t *testing.T) {
	dir := project(t)
	// A second checkout of the project with no agent mounted: the main
	// checkout of a lead, say.
	lead := filepath.Join(t.TempDir(), "lead")
	for _, args := range [][]string{{"git", "clone", "-q", dir, lead}} {
		if out, err := exec.Command(args[0], args[1:]...).CombinedOutput(); err != nil {
			t.Fatalf("%v: %v\n%s", args, err, out)
		}
	}
	cfg, err := os.ReadFile(filepath.Join(dir, ".planq", "config"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(lead, ".planq"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(lead, ".planq", "config"), cfg, 0o644); err != nil {
		t.Fatal(err)
	}
	a := connect(t, "--project", dir)
	if _, isErr := callTool(t, a, "planq_learn", map[string]any{"insight": "Promoted wisdom about tokens", "type": "pattern", "domain": "auth"}); isErr {
		t.Fatal("planq_learn failed")
	}
	promote := planqCmd("context", "promote", "--agent", "a", "--all")
	promote.Dir = dir
	if out, err := promote.CombinedOutput(); err != nil {
		t.Fatalf("promote: %v\n%s", err, out)
	}
	s := connect(t, "--project", lead)
	if text, isErr := callTool(t, s, "planq_search", map[string]any{"query": "wisdom tokens"}); isErr || !strings.Contains(text, "learnings/auth/") {
		t.Errorf("planq_search without an agent: want global's learning, got %v %s", isErr, text)
	}
	if text, isErr := callTool(t, s, "planq_context", map[string]any{}); isErr || !strings.Contains(text, "Promoted wisdom about tokens") {
		t.Errorf("planq_context without an agent: want global's memory, got %v %s", isErr, text)
	}
	if text, isErr := callTool(t, s, "planq_log", map[string]any{"message": "x"}); !isErr || !strings.Contains(text, "no agent is mounted") {
		t.Errorf("planq_log without an agent must refuse to write: %v %s", isErr, text)
	}
}

var nextCall = regexp.MustCompile(`(planq_[a-z]+) (\{[^}]*\})`)

// runNext calls every tool a result's "Next:" line suggests, with the
// arguments as printed, and fails the test when one is refused.
func runNext(t *testing.T, s *mcp.ClientSession, from, text string) int {
	t.Helper()
	_, line, ok := strings.Cut(text, "\n\nNext: ")
	if !ok {
		t.Errorf("%s result has no Next line:\n%s", from, text)
		return 0
	}
	n := 0
	for _, m := range nextCall.FindAllStringSubmatch(line, -1) {
		var args map[string]any
		if err := json.Unmarshal([]byte(m[2]), &args); err != nil {
			t.Errorf("%s suggests %s %s, which is not JSON: %v", from, m[1], m[2], err)
			continue
		}
		if out, isErr := callTool(t, s, m[1], args); isErr {
			t.Errorf("%s suggests %s %s, which fails: %s", from, m[1], m[2], out)
		}
		n++
	}
	return n
}

// TestReadingToolsSaySkippedRecords: a malformed record committed by hand
// is named in what context, search and log return, not silently dropped.
func TestReadingToolsSaySkippedRecords(t *testing.T) {
	dir := project(t)
	agentDir := filepath.Join(dir, ".planq", "agent")
	bad := "---\nid: pq-00000000c1\nkind: learning\ntype: hunch\ntimestamp: 2026-11-20T10:00:00Z\nagent: a\ndomain: auth\nclassification: tactical\n---\ntokens, badly typed\n"
	if err := os.MkdirAll(filepath.Join(agentDir, "learnings", "auth"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(agentDir, "learnings", "auth", "pq-00000000c1.md"), []byte(bad), 0o644); err != nil {
		t.Fatal(err)
	}
	testgit.Run(t, agentDir, "add", "learnings")
	testgit.Run(t, agentDir, "commit", "-q", "-m", "by hand")
	s := connect(t, "--project", dir)
	for tool, args := range map[string]map[string]any{
		"planq_context": {}, "planq_search": {"query": "tokens"},
	} {
		text, isErr := callTool(t, s, tool, args)
		if isErr || !strings.Contains(text, "Skipped 1 malformed record file(s)") || !strings.Contains(text, "pq-00000000c1.md:4: type: unknown value") {
			t.Errorf("%s: want the skipped file named, got %v:\n%s", tool, isErr, text)
		}
	}
}

// TestSearchSameOverMCPAndCLI: one question, asked over MCP and on the
// command line, finds the same records in the same order.
func TestSearchSameOverMCPAndCLI(t *testing.T) {
	dir := project(t)
	for _, args := range [][]string{
		{"learn", "Tokens expire after 15 minutes; refresh on 401", "--type", "pattern", "--domain", "auth"},
		{"learn", "Refresh tokens are rotated on every use", "--type", "convention", "--domain", "auth"},
		{"decide", "Sign tokens with RS256", "--because", "services verify with the public key"},
		{"log", "add", "Wired the token refresh middleware"},
		{"learn", "The CI cache is keyed on go.sum", "--type", "reference", "--domain", "ci"},
	} {
		cmd := planqCmd(args...)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("planq %v: %v\n%s", args, err, out)
		}
	}
	cmd := planqCmd("search", "token refresh", "when do tokens expire", "--json")
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	var cli struct{ Hits []struct{ Path string } }
	if err := json.Unmarshal(out, &cli); err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, h := range cli.Hits {
		want = append(want, h.Path)
	}
	if len(want) < 3 {
		t.Fatalf("the CLI found %d records, want at least 3: %s", len(want), out)
	}
	s := connect(t, "--project", dir)
	text, isErr := callTool(t, s, "planq_search", map[string]any{"query": "token refresh", "queries": []string{"when do tokens expire"}})
	if isErr {
		t.Fatal(text)
	}
	got := regexp.MustCompile(`(?m)^(\S+\.md):\d+-\d+  `).FindAllStringSubmatch(text, -1)
	var paths []string
	for _, m := range got {
		paths = append(paths, m[1])
	}
	if strings.Join(paths, " ") != strings.Join(want, " ") {
		t.Errorf("MCP found\n%v\nthe CLI\n%v", paths, want)
	}
}
