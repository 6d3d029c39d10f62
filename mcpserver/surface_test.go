package mcpserver_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/planq-dev/planq/internal/testkit/testgit"
	"github.com/planq-dev/planq/mcpserver"
)

// listed is what a client connected to the server is told at
// initialization and by tools/list, over the SDK's in-memory transport,
// with every tool the server can offer (planq_memory too). No project is
// needed: no tool runs.
func listed(t *testing.T) (*mcp.InitializeResult, []*mcp.Tool) {
	t.Helper()
	return listedBy(t, mcpserver.Unavailable(errors.New("no project"), "test").OfferMemoryTool())
}

// listedBy is listed for the tools s offers.
func listedBy(t *testing.T, s *mcpserver.Server) (*mcp.InitializeResult, []*mcp.Tool) {
	t.Helper()
	ctx := context.Background()
	serverEnd, clientEnd := mcp.NewInMemoryTransports()
	ss, err := s.MCP().Connect(ctx, serverEnd, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ss.Close() })
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).Connect(ctx, clientEnd, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	list, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	return cs.InitializeResult(), list.Tools
}

// hints are the annotations a tool is expected to carry.
type hints struct{ readOnly, destructive, idempotent bool }

// wantHints names each tool's annotations. A write only adds: a record, a
// commit, a tag; a correction or a retraction is a new record superseding
// the old one, which stays readable. The one exception is planq_scratch:
// replace overwrites the notes (git history keeps them, no tool reads them
// back). Idempotent: a second identical call is refused and changes nothing
// (a checkpoint name is taken, the target is superseded already, the
// proposal arrived already); TestIdempotentToolsChangeNothingTwice holds
// them to it.
var wantHints = map[string]hints{
	"planq_context":    {readOnly: true, idempotent: true},
	"planq_search":     {readOnly: true, idempotent: true},
	"planq_get":        {readOnly: true, idempotent: true},
	"planq_query":      {readOnly: true, idempotent: true},
	"planq_curate":     {readOnly: true, idempotent: true},
	"planq_scratch":    {destructive: true},
	"planq_log":        {},
	"planq_learn":      {},
	"planq_decide":     {},
	"planq_handoff":    {},
	"planq_note":       {},
	"planq_record":     {}, // offered only when the kind table has a generic kind
	"planq_checkpoint": {idempotent: true},
	"planq_edit":       {idempotent: true},
	"planq_retract":    {idempotent: true},
	"planq_revalidate": {idempotent: true},
	"planq_propose":    {idempotent: true},
	// planq_kb reads the knowledge base, and writes it: write replaces an
	// article (git history keeps it), resolve sets a side aside.
	"planq_kb": {destructive: true},
	// The memory tool's delete and str_replace overwrite (git history
	// keeps what was there); a second create is refused, a second insert
	// is not.
	"planq_memory": {destructive: true},
}

func TestEveryToolCarriesAnnotations(t *testing.T) {
	_, tools := listed(t)
	seen := map[string]bool{}
	for _, tool := range tools {
		seen[tool.Name] = true
		want, ok := wantHints[tool.Name]
		if !ok {
			t.Errorf("%s: no expected hints in wantHints; add its row", tool.Name)
			continue
		}
		a := tool.Annotations
		if a == nil {
			t.Errorf("%s: no annotations", tool.Name)
			continue
		}
		if a.Title == "" {
			t.Errorf("%s: no title", tool.Name)
		}
		if a.ReadOnlyHint != want.readOnly {
			t.Errorf("%s: readOnlyHint %t, want %t", tool.Name, a.ReadOnlyHint, want.readOnly)
		}
		// Unset, a client must assume the default: destructive, open world.
		if a.DestructiveHint == nil || *a.DestructiveHint != want.destructive {
			t.Errorf("%s: destructiveHint %s, want %t", tool.Name, show(a.DestructiveHint), want.destructive)
		}
		if a.IdempotentHint != want.idempotent {
			t.Errorf("%s: idempotentHint %t, want %t", tool.Name, a.IdempotentHint, want.idempotent)
		}
		if a.OpenWorldHint == nil || *a.OpenWorldHint {
			t.Errorf("%s: openWorldHint %s, want false", tool.Name, show(a.OpenWorldHint))
		}
	}
	for name := range wantHints {
		if !seen[name] && name != "planq_record" {
			t.Errorf("%s: in wantHints, not listed by the server", name)
		}
	}
}

func show(b *bool) string {
	if b == nil {
		return "unset"
	}
	if *b {
		return "true"
	}
	return "false"
}

// maxToolChars bounds what every tool a server offers by default costs an
// agent's context before it calls any: about 2,500 tokens at four
// characters a token. maxToolCharsWithMemory bounds the same with
// planq_memory offered (--memory-tool): its ten parameters are the
// memory-tool protocol's.
const (
	maxToolChars           = 10000
	maxToolCharsWithMemory = 10700
)

// toolChars measures that cost: the JSON, compact and with no HTML
// escaping, of the array of {"description", "inputSchema"} of every tool
// tools/list returns.
func toolChars(t *testing.T, tools []*mcp.Tool) int {
	t.Helper()
	type cost struct {
		Description string `json:"description"`
		InputSchema any    `json:"inputSchema"`
	}
	costs := make([]cost, 0, len(tools))
	for _, tool := range tools {
		costs = append(costs, cost{tool.Description, tool.InputSchema})
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(costs); err != nil {
		t.Fatal(err)
	}
	return len(bytes.TrimSpace(b.Bytes()))
}

// The recall rule: an agent searches before it answers from memory.
const recallRule = "Before answering about prior work, decisions or conventions"

func TestToolListFitsItsBudget(t *testing.T) {
	_, byDefault := listedBy(t, mcpserver.Unavailable(errors.New("no project"), "test"))
	n := toolChars(t, byDefault)
	t.Logf("%d tools: descriptions and input schemas take %d characters (budget %d)", len(byDefault), n, maxToolChars)
	if n > maxToolChars {
		t.Errorf("descriptions and input schemas of %d tools take %d characters, over %d", len(byDefault), n, maxToolChars)
	}
	for _, tool := range byDefault {
		if tool.Name == "planq_memory" {
			t.Error("planq_memory is offered by default; it is asked for with --memory-tool")
		}
	}
	initRes, tools := listed(t)
	if len(tools) != len(byDefault)+1 {
		t.Errorf("with the memory tool, %d tools; want the %d of the default and planq_memory", len(tools), len(byDefault))
	}
	if n := toolChars(t, tools); n > maxToolCharsWithMemory {
		t.Errorf("with planq_memory, descriptions and input schemas of %d tools take %d characters, over %d", len(tools), n, maxToolCharsWithMemory)
	}
	var search *mcp.Tool
	for _, tool := range tools {
		if tool.Name == "planq_search" {
			search = tool
		}
		// Every parameter says what it is, or is named plainly enough
		// to need nothing.
		schema, _ := tool.InputSchema.(map[string]any)
		props, _ := schema["properties"].(map[string]any)
		for name, p := range props {
			if d, _ := p.(map[string]any)["description"].(string); d == "" && !plainParams[name] {
				t.Errorf("%s: parameter %s has no description", tool.Name, name)
			}
		}
	}
	if search == nil || !strings.Contains(search.Description, recallRule) {
		t.Errorf("planq_search's description lost the recall rule %q", recallRule)
	}
	for _, want := range []string{recallRule, "Leave agent out", "Set allow_secret only when"} {
		if !strings.Contains(initRes.Instructions, want) {
			t.Errorf("the server's instructions lost %q:\n%s", want, initRes.Instructions)
		}
	}
}

// plainParams are the parameters whose name, with the tool's description
// and their enumerated values, says all.
var plainParams = map[string]bool{"type": true, "types": true, "kinds": true, "status": true, "domain": true, "domains": true,
	"classification": true, "classifications": true, "tags": true, "resolution": true, "slug": true, "action": true,
	// Described once, in the instructions: nearly every tool takes them.
	"agent": true, "allow_secret": true,
	// planq_memory's: the memory-tool protocol's own, which the models that
	// call it were trained on.
	"command": true, "path": true, "view_range": true, "file_text": true, "old_str": true, "new_str": true,
	"insert_line": true, "insert_text": true, "old_path": true, "new_path": true,
	// planq_memory's scope: its values, agent and user, say it.
	"scope": true}

// TestIdempotentToolsChangeNothingTwice calls every write tool annotated
// idempotent twice with the same arguments: the second call must leave
// every ref of the state repository where the first left it.
func TestIdempotentToolsChangeNothingTwice(t *testing.T) {
	dir := project(t)
	s := connect(t, "--project", dir)
	refs := func() string {
		return testgit.Run(t, filepath.Join(dir, ".planq", "agent"), "for-each-ref", "--format=%(refname) %(objectname)")
	}
	learned := func(insight string) string {
		text, isErr := callTool(t, s, "planq_learn", map[string]any{"insight": insight, "type": "pattern", "domain": "auth"})
		if isErr {
			t.Fatalf("planq_learn: %s", text)
		}
		return recordID.FindString(text)
	}
	noted, isErr := callTool(t, s, "planq_note", map[string]any{"text": "run the overlay tests with --race"})
	if isErr {
		t.Fatalf("planq_note: %s", noted)
	}
	calls := map[string]map[string]any{
		"planq_checkpoint": {"name": "cp1"},
		"planq_edit":       {"id": learned("Tokens expire after 15 minutes"), "text": "Tokens expire after 10 minutes"},
		"planq_retract":    {"id": learned("Sessions last a day"), "reason": "wrong"},
		"planq_revalidate": {"id": learned("Refresh tokens rotate")},
		"planq_propose": {"proposed_files": map[string]any{"AGENTS.md": "# Agents\n\nRun the overlay tests with `--race`.\n"},
			"diff_summary": "AGENTS.md: --race", "entries_used": []string{recordID.FindString(noted)}},
	}
	_, tools := listed(t)
	for _, tool := range tools {
		if tool.Annotations == nil || tool.Annotations.ReadOnlyHint || !tool.Annotations.IdempotentHint {
			continue
		}
		args, ok := calls[tool.Name]
		if !ok {
			t.Errorf("%s is annotated idempotent: give it a call here", tool.Name)
			continue
		}
		if text, isErr := callTool(t, s, tool.Name, args); isErr {
			t.Fatalf("%s: %s", tool.Name, text)
		}
		before := refs()
		text, _ := callTool(t, s, tool.Name, args)
		if after := refs(); after != before {
			t.Errorf("%s called twice: the second call moved refs (it answered %q)\nbefore:\n%s\nafter:\n%s", tool.Name, text, before, after)
		}
	}
}
