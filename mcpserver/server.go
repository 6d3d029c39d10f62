package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/planq-dev/planq/session"
)

// Server is planq's MCP server for one project.
type Server struct {
	mu sync.Mutex // tool calls share one service; git work is serialised
	// svc is the project service every tool goes through.
	svc     *session.Project
	version string
	// unavailable says why there is no service: the server was started
	// outside a planq project. It serves anyway, and every tool says so.
	unavailable error
	// memoryTool offers planq_memory (OfferMemoryTool).
	memoryTool bool
}

// OfferMemoryTool has s offer planq_memory, the memory-tool protocol over
// MCP, beside its other tools. It is asked for ('planq mcp serve
// --memory-tool'), not offered by default: an agent connected to planq
// records with planq_learn and planq_note, and a second way to keep memory
// would cost every agent's context its schema and leave the agent to
// choose between the two.
func (s *Server) OfferMemoryTool() *Server {
	s.memoryTool = true
	return s
}

// New opens the project at dir for serving; ctx's readmodel.Progress hears
// of the read model's builds.
func New(ctx context.Context, dir, version string) (*Server, error) {
	svc, err := session.OpenStore(ctx, dir)
	if err != nil {
		return nil, err
	}
	return &Server{svc: svc, version: version}, nil
}

// Unavailable is a server for a directory that is not a planq project: it
// lists its tools like any other and answers each call with why, and what
// to do, rather than leave the agent with a server that died at start.
func Unavailable(why error, version string) *Server {
	return &Server{unavailable: why, version: version}
}

// Close saves what the record cache learned.
func (s *Server) Close() error {
	return s.svc.Close()
}

// MCP builds the SDK server with every tool registered.
func (s *Server) MCP() *mcp.Server {
	srv := mcp.NewServer(&mcp.Implementation{Name: "planq", Version: s.version}, &mcp.ServerOptions{
		Instructions: instructions,
	})
	s.register(srv)
	return srv
}

// Run serves newline-delimited JSON-RPC read from in and written to out
// (the process's stdin and stdout) until the client goes away. A line that
// is not a JSON-RPC message gets its error response; serving goes on.
func (s *Server) Run(ctx context.Context, in io.Reader, out io.Writer) error {
	guard := newLineGuard(in, out)
	return s.MCP().Run(ctx, &mcp.IOTransport{Reader: guard, Writer: guard, MaxLineLength: -1})
}

func (s *Server) call(fn func() (string, error)) (*mcp.CallToolResult, any, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.svc == nil {
		return nil, nil, toolError(s.unavailable)
	}
	text, err := fn()
	if err != nil {
		return nil, nil, toolError(err)
	}
	return textResult(text), nil, nil
}

func textResult(text string) *mcp.CallToolResult {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}}
}

// toolError is an error the SDK reports as a tool error (isError), with
// planq's hint, so the agent can correct itself.
func toolError(err error) error {
	msg := err.Error()
	if h := hintOf(err); h != "" {
		msg += " (hint: " + h + ")"
	}
	return errors.New(msg)
}

// maxSkipped bounds the skipped files a result names.
const maxSkipped = 5

// skipped says which record files a read left out and why, so an agent
// knows its answer misses them; "" when none was.
func skipped(problems []string) string {
	if len(problems) == 0 {
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "\n\nSkipped %d malformed record file(s); fix them in the writing agent's .planq/agent and commit:", len(problems))
	for _, p := range problems[:min(maxSkipped, len(problems))] {
		b.WriteString("\n- " + p)
	}
	if len(problems) > maxSkipped {
		fmt.Fprintf(&b, "\n- ... and %d more ('planq doctor' lists them all)", len(problems)-maxSkipped)
	}
	return b.String()
}

// next formats the calls that dig deeper, ending every result.
func next(calls ...string) string {
	if len(calls) == 0 {
		return ""
	}
	return "\n\nNext: " + strings.Join(calls, " or ")
}

// call formats a tool call as an agent would send it: argument values in
// JSON, so a number stays a number and the call is valid as printed.
func call(tool string, args ...any) string {
	var parts []string
	for i := 0; i+1 < len(args); i += 2 {
		var val bytes.Buffer
		enc := json.NewEncoder(&val)
		enc.SetEscapeHTML(false) // "<topic>", not "\u003ctopic\u003e"
		if err := enc.Encode(args[i+1]); err != nil {
			val.Reset()
			val.WriteString(`""`) // strings, numbers and booleans always encode
		}
		parts = append(parts, fmt.Sprintf("%q: %s", args[i], bytes.TrimSpace(val.Bytes())))
	}
	return tool + " {" + strings.Join(parts, ", ") + "}"
}

// ToolInfo describes one tool as an agent sees it.
type ToolInfo struct {
	Name        string               `json:"name"`
	Description string               `json:"description"`
	ReadOnly    bool                 `json:"read_only"`
	Annotations *mcp.ToolAnnotations `json:"annotations"`
	InputSchema any                  `json:"input_schema"`
}

// Title is the tool's title, else its name.
func (t ToolInfo) Title() string {
	if t.Annotations != nil && t.Annotations.Title != "" {
		return t.Annotations.Title
	}
	return t.Name
}

// Tools lists the tools the server offers, with the input schemas an agent
// is given, as a client connected to it would list them: the one list of
// them, which 'planq mcp serve --help' prints too. It needs no project: no
// tool runs.
func Tools(ctx context.Context, version string, memoryTool bool) ([]ToolInfo, error) {
	srv := (&Server{version: version, memoryTool: memoryTool}).MCP()
	serverEnd, clientEnd := mcp.NewInMemoryTransports()
	ss, err := srv.Connect(ctx, serverEnd, nil)
	if err != nil {
		return nil, fmt.Errorf("failed to start the MCP server: %w", err)
	}
	defer ss.Close()
	client := mcp.NewClient(&mcp.Implementation{Name: "planq", Version: version}, nil)
	cs, err := client.Connect(ctx, clientEnd, nil)
	if err != nil {
		return nil, fmt.Errorf("failed to connect to the MCP server: %w", err)
	}
	defer cs.Close()
	list, err := cs.ListTools(ctx, nil)
	if err != nil {
		return nil, fmt.Errorf("failed to list tools: %w", err)
	}
	out := make([]ToolInfo, 0, len(list.Tools))
	for _, t := range list.Tools {
		out = append(out, ToolInfo{Name: t.Name, Description: t.Description,
			ReadOnly: t.Annotations != nil && t.Annotations.ReadOnlyHint, Annotations: t.Annotations, InputSchema: t.InputSchema})
	}
	return out, nil
}
