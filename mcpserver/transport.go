package mcpserver

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"math"
	"slices"
	"sync"
	"time"
	"unicode/utf8"
)

// maxLine bounds one JSON-RPC message, as the SDK's own transport does.
const maxLine = 16 << 20

// maxDepth is the deepest nesting the SDK's decoder accepts; a deeper
// message ends its read loop.
const maxDepth = 1000

// maxExactID is the largest integer id the SDK echoes exactly: it decodes
// ids as float64.
const maxExactID = 1<<53 - 1

// initWait bounds how long a batch waits for initialize's answer.
const initWait = 10 * time.Second

// firstUnbatchedVersion is the protocol version that dropped JSON-RPC
// batches; versions compare as dates, as the SDK compares them.
const firstUnbatchedVersion = "2025-06-18"

// JSON-RPC error codes for messages that never reach the SDK.
const (
	codeParseError     = -32700
	codeInvalidRequest = -32600
	codeInvalidParams  = -32602
)

// lineGuard stands between stdin and the SDK, one newline-delimited message
// at a time. A line the SDK's reader would stop at (not JSON, not a JSON-RPC
// message, an id that is not a string or an integer, a batch the protocol
// has no room for) is answered with the JSON-RPC error the protocol
// prescribes and dropped, instead of ending the session: an agent that sent
// one bad line would lose its memory for the rest of the session. It also
// answers a second initialize, which the SDK answers with no error code.
// To know which protocol was agreed, it reads the SDK's answer to
// initialize on the way out. Writes from the SDK and from the guard share
// a lock, so their lines never interleave.
type lineGuard struct {
	in      *bufio.Reader
	pending []byte // checked bytes the SDK has yet to read

	mu  sync.Mutex // guards out and the session state below
	out io.Writer
	// initID is the id of the initialize request awaiting its answer;
	// initDone is closed when it comes.
	initID   any
	initDone chan struct{}
	// initialized: an initialize was answered with a result; version is
	// the protocol version it agreed.
	initialized bool
	version     string
	// batchIDs are the request ids of batches passed on and not yet
	// answered: the SDK ends the session on a batch that reuses one.
	batchIDs map[any]bool
}

func newLineGuard(in io.Reader, out io.Writer) *lineGuard {
	return &lineGuard{in: bufio.NewReaderSize(in, 64<<10), out: out}
}

func (g *lineGuard) Read(p []byte) (int, error) {
	for len(g.pending) == 0 {
		line, err := g.readLine()
		if len(line) > 0 {
			g.pending = g.check(line)
		}
		if err != nil && len(g.pending) == 0 {
			return 0, err
		}
	}
	n := copy(p, g.pending)
	g.pending = g.pending[n:]
	return n, nil
}

// readLine returns the next line with its newline; a line longer than
// maxLine is answered as a parse error and skipped to its end, so that no
// tail of it is read as a line of its own.
func (g *lineGuard) readLine() ([]byte, error) {
	var line []byte
	long := false
	for {
		chunk, err := g.in.ReadSlice('\n')
		if !long && len(line)+len(chunk) > maxLine {
			long, line = true, nil
		}
		if !long {
			line = append(line, chunk...)
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		if !long {
			return line, err
		}
		g.reply(nil, codeParseError, "Parse error: message longer than 16 MiB")
		if err != nil {
			return nil, err
		}
		long = false
	}
}

// check passes a JSON-RPC message on (with its newline) and answers
// anything else, returning nothing to pass.
func (g *lineGuard) check(line []byte) []byte {
	trimmed := bytes.TrimSpace(line)
	switch {
	case len(trimmed) == 0:
		return nil
	case !json.Valid(trimmed):
		g.reply(nil, codeParseError, "Parse error: the line is not JSON")
		return nil
	case !utf8.Valid(trimmed):
		// JSON is UTF-8; the SDK would turn the bad bytes into U+FFFD and
		// answer an id other than the one sent.
		g.reply(nil, codeParseError, "Parse error: the line is not UTF-8")
		return nil
	case depth(trimmed) > maxDepth:
		g.reply(nil, codeParseError, fmt.Sprintf("Parse error: the message nests deeper than %d levels", maxDepth))
		return nil
	case trimmed[0] == '[':
		if !g.checkBatch(trimmed) {
			return nil
		}
	case trimmed[0] == '{':
		if !g.checkObject(trimmed) {
			return nil
		}
	default:
		g.reply(nil, codeInvalidRequest, "Invalid Request: a JSON-RPC message is an object")
		return nil
	}
	return append(trimmed, '\n')
}

// checkObject answers a message that is an object and that the SDK
// cannot take, and says whether to pass it on.
func (g *lineGuard) checkObject(raw []byte) bool {
	m, problem := parseMessage(raw)
	if problem == "" && m.method == "initialize" && m.id != nil {
		problem = g.startInitialize(m)
	}
	if problem == "" && m.method == "tools/call" && m.id != nil {
		if why := nullArgument(raw); why != "" {
			g.reply(m.rawID, codeInvalidParams, "Invalid params: "+why)
			return false
		}
	}
	if problem == "" {
		return true
	}
	if !m.isResponse() { // a response is never answered, and one the SDK cannot match is of no use to it
		g.reply(m.rawID, codeInvalidRequest, "Invalid Request: "+problem)
	}
	return false
}

// nullArgument says which argument of a tools/call request is null, ""
// when none is. No tool's argument takes null (schemaFor leaves it out of
// every type), and the SDK's validator would answer one with
// "<invalid reflect.Value> has type null". The memory tool answers its own
// in the protocol's voice.
func nullArgument(raw []byte) string {
	var call struct {
		Params struct {
			Name      string                     `json:"name"`
			Arguments map[string]json.RawMessage `json:"arguments"`
		} `json:"params"`
	}
	if json.Unmarshal(raw, &call) != nil || call.Params.Name == memoryToolName {
		return ""
	}
	for _, name := range slices.Sorted(maps.Keys(call.Params.Arguments)) {
		if bytes.Equal(bytes.TrimSpace(call.Params.Arguments[name]), []byte("null")) {
			tool := call.Params.Name
			if len(tool) > 64 {
				tool = tool[:64] + "..."
			}
			return fmt.Sprintf("argument %q of tool %q is null: send a value of its type, or leave it out", name, tool)
		}
	}
	return ""
}

// startInitialize notes an initialize request, so that its answer tells
// which protocol was agreed, or says why it is refused.
func (g *lineGuard) startInitialize(m message) string {
	g.mu.Lock()
	defer g.mu.Unlock()
	switch {
	case g.initialized:
		return "the session is initialized already; initialize is sent once, at the start"
	case g.initID != nil:
		return "an initialize request is still being answered; initialize is sent once, at the start"
	}
	g.initID, g.initDone = m.id, make(chan struct{})
	return ""
}

// checkBatch says whether a batch may pass to the SDK, answering it when
// not. The protocols before 2025-06-18 have batches; the SDK ends the
// session on a batch that is empty, holds a message it cannot decode, or
// reuses a request id, so such a batch is answered whole with one error.
func (g *lineGuard) checkBatch(raw []byte) bool {
	initialized, version := g.agreed()
	switch {
	case !initialized:
		g.reply(nil, codeInvalidRequest, "Invalid Request: a batch before the session is initialized; send initialize on a line of its own")
		return false
	case version >= firstUnbatchedVersion:
		g.reply(nil, codeInvalidRequest, fmt.Sprintf("Invalid Request: protocol %s has no JSON-RPC batches; send each message on a line of its own", version))
		return false
	}
	var elems []json.RawMessage
	if err := json.Unmarshal(raw, &elems); err != nil || len(elems) == 0 {
		g.reply(nil, codeInvalidRequest, "Invalid Request: an empty batch")
		return false
	}
	ids := map[any]bool{}
	for i, e := range elems {
		m, problem := parseMessage(e)
		switch {
		case problem == "" && m.method == "initialize":
			problem = "initialize is never part of a batch"
		case problem == "" && m.method != "" && m.id != nil:
			if ids[m.id] {
				problem = fmt.Sprintf("the id %s is used twice", m.rawID)
			}
			ids[m.id] = true
		}
		if problem != "" {
			g.reply(nil, codeInvalidRequest, fmt.Sprintf("Invalid Request: message %d of the batch: %s", i+1, problem))
			return false
		}
	}
	if id, taken := g.claimBatchIDs(ids); taken {
		g.reply(nil, codeInvalidRequest, fmt.Sprintf("Invalid Request: the id %v belongs to a batch still being answered", id))
		return false
	}
	return true
}

// claimBatchIDs records the request ids of a batch passed on, or names one
// an earlier batch still holds.
func (g *lineGuard) claimBatchIDs(ids map[any]bool) (any, bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	for id := range ids {
		if g.batchIDs[id] {
			return id, true
		}
	}
	if g.batchIDs == nil {
		g.batchIDs = map[any]bool{}
	}
	for id := range ids {
		g.batchIDs[id] = true
	}
	return nil, false
}

// agreed says whether the session is initialized, and with which protocol
// version. A client that sends on without waiting for initialize's answer
// waits for it here (the SDK answers initialize on another goroutine), so
// that a batch is judged by the protocol it will be read under.
func (g *lineGuard) agreed() (bool, string) {
	g.mu.Lock()
	done := g.initDone
	g.mu.Unlock()
	if done != nil {
		select {
		case <-done:
		case <-time.After(initWait):
		}
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.initialized, g.version
}

// message is what the guard needs of one JSON-RPC message.
type message struct {
	method string
	// id is the request or response id as the SDK decodes it (float64 or
	// string), nil when there is none or it is not valid; rawID is its
	// text, to echo exactly.
	id       any
	rawID    json.RawMessage
	response bool // it has a result or an error and no method
}

func (m message) isResponse() bool { return m.response }

// parseMessage reads one JSON-RPC message as strictly as the SDK's decoder
// (exact key names, the last of a repeated key) and says what is wrong
// with it, "" when the SDK can take it.
func parseMessage(raw []byte) (message, string) {
	var m message
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(raw, &fields); err != nil {
		return m, "a JSON-RPC message is an object"
	}
	rawID, hasID := fields["id"]
	if hasID {
		if id, ok := validID(rawID); ok {
			m.id, m.rawID = id, rawID
		}
	}
	_, hasMethod := fields["method"]
	_, hasResult := fields["result"]
	_, hasError := fields["error"]
	m.response = !hasMethod && (hasResult || hasError)

	var version string
	if json.Unmarshal(fields["jsonrpc"], &version) != nil || version != "2.0" {
		return m, noKind
	}
	if problem := m.readMethod(fields); problem != "" {
		return m, problem
	}
	if hasID && m.id == nil {
		// MCP's ids are strings or integers, never null; the id is not
		// echoed, as JSON-RPC says of an id that cannot be read.
		return m, fmt.Sprintf(`the id %s is not a string or an integer (MCP ids are one or the other, never null)`, clip(rawID))
	}
	if m.response && m.id == nil {
		return m, "a response without an id"
	}
	return m, ""
}

const noKind = `a JSON-RPC 2.0 message has "jsonrpc":"2.0" and a method, result or error`

// readMethod reads a request's or notification's method, and checks a
// response's error: what is wrong with them, "" when nothing is.
func (m *message) readMethod(fields map[string]json.RawMessage) string {
	rawMethod, hasMethod := fields["method"]
	_, hasResult := fields["result"]
	rawError, hasError := fields["error"]
	switch {
	case hasMethod:
		if json.Unmarshal(rawMethod, &m.method) != nil || bytes.Equal(bytes.TrimSpace(rawMethod), []byte("null")) {
			return `"method" is a string`
		}
	case hasResult || hasError:
		if hasError && !validError(rawError) {
			return `"error" is an object with an integer "code" and a string "message"`
		}
	default:
		return noKind
	}
	return ""
}

// validID decodes an id MCP allows and the SDK echoes exactly: a string, or
// an integer within ±2^53-1.
func validID(raw json.RawMessage) (any, bool) {
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		return nil, false
	}
	switch v := v.(type) {
	case string:
		return v, true
	case float64:
		if v == math.Trunc(v) && math.Abs(v) <= maxExactID {
			return v, true
		}
	}
	return nil, false
}

// validError says whether an error object decodes as the SDK decodes one.
func validError(raw json.RawMessage) bool {
	var e *struct {
		Code    int64           `json:"code"`
		Message string          `json:"message"`
		Data    json.RawMessage `json:"data"`
	}
	return json.Unmarshal(raw, &e) == nil
}

// depth is how deeply raw (valid JSON) nests objects and arrays.
func depth(raw []byte) int {
	d, deepest := 0, 0
	inString, escaped := false, false
	for _, b := range raw {
		switch {
		case inString:
			switch {
			case escaped:
				escaped = false
			case b == '\\':
				escaped = true
			case b == '"':
				inString = false
			}
		case b == '"':
			inString = true
		case b == '{' || b == '[':
			d++
			deepest = max(deepest, d)
		case b == '}' || b == ']':
			d--
		}
	}
	return deepest
}

// clip shortens a value quoted in an error message.
func clip(raw json.RawMessage) string {
	const most = 40
	if len(raw) > most {
		return string(raw[:most]) + "..."
	}
	return string(raw)
}

// reply writes one JSON-RPC error response; id is echoed when valid.
func (g *lineGuard) reply(id json.RawMessage, code int, message string) {
	if len(id) == 0 {
		id = json.RawMessage("null")
	}
	data, err := json.Marshal(map[string]any{
		"jsonrpc": "2.0", "id": id,
		"error": map[string]any{"code": code, "message": message},
	})
	if err != nil {
		return // a map of strings, numbers and valid JSON always encodes
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	_, _ = g.out.Write(append(data, '\n')) // a client that went away hears nothing either way
}

// Write passes the SDK's lines on, reading the answers the guard waits
// for: initialize's, and those of batches.
func (g *lineGuard) Write(p []byte) (int, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.initID != nil && bytes.HasPrefix(p, []byte("{")) {
		g.sawAnswer(p)
	}
	if len(g.batchIDs) > 0 && bytes.HasPrefix(p, []byte("[")) {
		var answers []struct {
			ID any `json:"id"`
		}
		if json.Unmarshal(p, &answers) == nil {
			for _, a := range answers {
				delete(g.batchIDs, a.ID)
			}
		}
	}
	return g.out.Write(p)
}

// sawAnswer notes the answer to the pending initialize, if p is it.
func (g *lineGuard) sawAnswer(p []byte) {
	var answer struct {
		ID     any `json:"id"`
		Result *struct {
			ProtocolVersion string `json:"protocolVersion"`
		} `json:"result"`
	}
	if json.Unmarshal(p, &answer) != nil || answer.ID != g.initID {
		return
	}
	g.initID = nil
	close(g.initDone)
	g.initDone = nil
	if answer.Result != nil {
		g.initialized = true
		g.version = answer.Result.ProtocolVersion
	}
}

func (g *lineGuard) Close() error { return nil }
