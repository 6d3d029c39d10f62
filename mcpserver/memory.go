package mcpserver

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"

	"github.com/charmbracelet/log"
	"github.com/google/jsonschema-go/jsonschema"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/planq-dev/planq/planqerr"
	"github.com/planq-dev/planq/session"
)

// memoryToolName is the memory tool's name over MCP.
const memoryToolName = "planq_memory"

// memoryIn is planq_memory's arguments: the memory-tool protocol's
// command, as planq memtool reads it from stdin, with the agent, scope and
// allow_secret planq memtool takes as flags.
type memoryIn = session.MemoryInput

// registerMemory adds planq_memory: the memory tool's commands (view,
// create, str_replace, insert, delete, rename under /memories) on the
// agent's memories/ folder, answered with the protocol's texts, as
// 'planq memtool' answers them. A refusal is a tool error whose text is
// the protocol's answer; nothing is added to either (no "Next:"), since
// models were trained on the texts as they are.
//
// The handler reads the arguments itself, with ParseMemoryCommand first, as
// planq memtool reads stdin: the SDK's typed handler validates against
// the schema before any of planq's code runs, and answers a parameter sent
// as null with the validator's "<invalid reflect.Value> has type null".
// Then the schema has its say on the rest (an unknown command or scope,
// an unknown parameter, an agent that is no string), as the SDK would.
func (s *Server) registerMemory(srv *mcp.Server) {
	schema := schemaFor[memoryIn](enums{"command": {"view", "create", "str_replace", "insert", "delete", "rename"}, "scope": values(session.MemoryScopes)})
	resolved, err := schema.Resolve(&jsonschema.ResolveOptions{ValidateDefaults: true})
	if err != nil {
		panic(fmt.Sprintf("mcpserver: planq_memory's input schema: %v", err)) // a programming error, caught by every test run
	}
	srv.AddTool(&mcp.Tool{Name: memoryToolName, Annotations: annotate("Memory tool (/memories)", overwrites),
		Description: "The memory tool's commands on your /memories folder, kept in git (a commit per change).",
		InputSchema: schema},
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			in, err := decodeMemoryIn(req.Params.Arguments, schema, resolved)
			if err != nil {
				return errorResult(err), nil
			}
			res, _, err := s.memory(ctx, in)
			if err != nil {
				return errorResult(err), nil
			}
			return res, nil
		})
}

// decodeMemoryIn reads planq_memory's arguments: the protocol's command as
// planq memtool reads it (a refusal is the protocol's answer), then planq's
// own parameters, none null, all as the schema has them.
func decodeMemoryIn(args json.RawMessage, schema *jsonschema.Schema, resolved *jsonschema.Resolved) (memoryIn, error) {
	if len(args) == 0 {
		args = json.RawMessage("{}")
	}
	if _, err := session.ParseMemoryCommand(args); err != nil {
		return memoryIn{}, err
	}
	var m map[string]any
	if err := json.Unmarshal(args, &m); err != nil {
		return memoryIn{}, err // Parse read it as an object: not reached
	}
	for _, name := range slices.Sorted(maps.Keys(m)) {
		if p := schema.Properties[name]; m[name] == nil && p != nil {
			return memoryIn{}, &session.MemoryRefusal{Kind: planqerr.Invalid, Text: fmt.Sprintf("Error: Parameter `%s` must be %s, not null", name, aType(p.Type))}
		}
	}
	if err := resolved.Validate(m); err != nil {
		return memoryIn{}, fmt.Errorf("validating \"arguments\": %w", err)
	}
	var in memoryIn
	if err := json.Unmarshal(args, &in); err != nil {
		return memoryIn{}, fmt.Errorf("reading \"arguments\": %w", err)
	}
	return in, nil
}

// aType names a JSON schema type as the protocol's answers do.
func aType(t string) string {
	switch t {
	case "integer", "array", "object":
		return "an " + t
	}
	return "a " + t
}

// errorResult is err as the SDK's typed handlers report one: a tool error
// whose text is err's.
func errorResult(err error) *mcp.CallToolResult {
	var res mcp.CallToolResult
	res.SetError(err)
	return &res
}

// memory carries out in's command where its scope says. The user
// layer's memories/ need no project: a server started outside one serves
// them all the same.
func (s *Server) memory(ctx context.Context, in memoryIn) (*mcp.CallToolResult, any, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	svc := s.svc
	if svc == nil {
		if in.Scope != session.ScopeUser {
			return nil, nil, toolError(s.unavailable)
		}
		svc = session.Open("")
		defer func() { _ = svc.Close() }()
	}
	res, err := svc.Memory(ctx, in)
	if res.MadeUserLayer != "" {
		log.Info("planq: made the user layer: your memory across projects", "path", res.MadeUserLayer)
	}
	if err != nil {
		return nil, nil, toolError(err)
	}
	return textResult(res.Text), nil, nil
}
