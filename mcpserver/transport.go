package mcpserver

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"sync"
)

// maxLine bounds one JSON-RPC message, as the SDK's own transport does.
const maxLine = 16 << 20

// JSON-RPC error codes for messages that never reach the SDK.
const (
	codeParseError     = -32700
	codeInvalidRequest = -32600
)

// lineGuard stands between stdin and the SDK, one newline-delimited message
// at a time. A line that is not JSON, or not a JSON-RPC message, is answered
// with the JSON-RPC error the protocol prescribes and dropped, instead of
// ending the session: the SDK's reader stops at the first line it cannot
// decode, and an agent that sent one bad line would lose its memory for the
// rest of the session. Writes from the SDK and from the guard share a lock,
// so their lines never interleave.
type lineGuard struct {
	in      *bufio.Reader
	out     io.Writer
	mu      sync.Mutex
	pending []byte
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
// maxLine is answered as a parse error and skipped.
func (g *lineGuard) readLine() ([]byte, error) {
	var line []byte
	for {
		chunk, err := g.in.ReadSlice('\n')
		if len(line)+len(chunk) > maxLine {
			line = nil
			if errors.Is(err, bufio.ErrBufferFull) {
				continue // drain the rest of the line
			}
			g.reply(nil, codeParseError, "Parse error: message longer than 16 MiB")
			if err != nil {
				return nil, err
			}
			continue
		}
		line = append(line, chunk...)
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		return line, err
	}
}

// check passes a JSON-RPC message on (with its newline) and answers
// anything else, returning nothing to pass.
func (g *lineGuard) check(line []byte) []byte {
	trimmed := bytes.TrimSpace(line)
	if len(trimmed) == 0 {
		return nil
	}
	if !json.Valid(trimmed) {
		g.reply(nil, codeParseError, "Parse error: the line is not JSON")
		return nil
	}
	if trimmed[0] == '{' {
		var msg struct {
			JSONRPC string          `json:"jsonrpc"`
			ID      json.RawMessage `json:"id"`
			Method  *string         `json:"method"`
			Result  json.RawMessage `json:"result"`
			Error   json.RawMessage `json:"error"`
		}
		if err := json.Unmarshal(trimmed, &msg); err != nil || msg.JSONRPC != "2.0" || (msg.Method == nil && msg.Result == nil && msg.Error == nil) {
			g.reply(msg.ID, codeInvalidRequest, `Invalid Request: a JSON-RPC 2.0 message has "jsonrpc":"2.0" and a method, result or error`)
			return nil
		}
	} else if trimmed[0] != '[' {
		g.reply(nil, codeInvalidRequest, "Invalid Request: a JSON-RPC message is an object or a batch")
		return nil
	}
	return append(trimmed, '\n')
}

// reply writes one JSON-RPC error response.
func (g *lineGuard) reply(id json.RawMessage, code int, message string) {
	if len(id) == 0 {
		id = json.RawMessage("null")
	}
	data, err := json.Marshal(map[string]any{
		"jsonrpc": "2.0", "id": id,
		"error": map[string]any{"code": code, "message": message},
	})
	if err != nil {
		return // a map of strings and numbers always encodes
	}
	_, _ = g.Write(append(data, '\n')) // a client that went away hears nothing either way
}

func (g *lineGuard) Write(p []byte) (int, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.out.Write(p)
}

func (g *lineGuard) Close() error { return nil }
