package mcpserver

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// FuzzLineGuard holds the guard in front of the SDK to its promise for any
// line an agent may send: either the line is passed on, and the SDK's own
// decoder reads it as a JSON-RPC message (so the SDK never stops serving
// on it), or the guard answers it with one JSON-RPC error of the protocol's
// codes and passes nothing, or it drops a response it cannot match.
func FuzzLineGuard(f *testing.F) {
	for _, seed := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"ping"}`,
		`{"jsonrpc":"2.0","id":"a","method":"tools/list","params":{}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":2,"result":{}}`,
		`[]`, `[{"jsonrpc":"2.0","id":2,"method":"ping"}]`,
		`{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}`, `{"jsonrpc":"2.0","id":1.5,"method":"ping"}`,
		`{"jsonrpc":"2.0","id":true,"method":"ping"}`, `{"jsonrpc":"2.0","id":9007199254740993,"method":"ping"}`,
		`{"jsonrpc":"2.0","id":3,"method":"initialize","params":{"protocolVersion":"2025-06-18"}}`,
		`not json`, "\"a\xff\"", `"ping"`, `{"jsonrpc":"1.0","id":1,"method":"ping"}`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		var out bytes.Buffer
		g := newLineGuard(bytes.NewReader(nil), &out)
		passed := g.check(line)
		answered := out.Bytes()
		switch {
		case len(passed) > 0 && len(answered) > 0:
			t.Fatalf("line %q was both passed on and answered with %s", line, answered)
		case len(passed) > 0:
			if !bytes.HasSuffix(passed, []byte("\n")) || bytes.Count(passed, []byte("\n")) != 1 {
				t.Fatalf("line %q passed on as %q: not one line", line, passed)
			}
			body := bytes.TrimSuffix(passed, []byte("\n"))
			if body[0] == '[' {
				return // a batch under an older protocol: the SDK reads each element, checked one by one
			}
			if _, err := jsonrpc.DecodeMessage(body); err != nil {
				t.Fatalf("line %q passed on, but the SDK cannot read it: %v", line, err)
			}
		case len(answered) > 0:
			if bytes.Count(answered, []byte("\n")) != 1 {
				t.Fatalf("line %q answered with more than one line: %q", line, answered)
			}
			var resp struct {
				JSONRPC string          `json:"jsonrpc"`
				ID      json.RawMessage `json:"id"`
				Error   *struct {
					Code    int    `json:"code"`
					Message string `json:"message"`
				} `json:"error"`
			}
			if err := json.Unmarshal(answered, &resp); err != nil {
				t.Fatalf("line %q answered with %q, which is not JSON: %v", line, answered, err)
			}
			if resp.JSONRPC != "2.0" || resp.Error == nil || (resp.Error.Code != codeParseError && resp.Error.Code != codeInvalidRequest) {
				t.Fatalf("line %q answered with %s: not a JSON-RPC parse or invalid-request error", line, answered)
			}
			if _, ok := validID(resp.ID); !ok && string(resp.ID) != "null" {
				t.Fatalf("line %q answered with the id %s, which no MCP request may carry: an id that is not a string or an integer is answered as null", line, resp.ID)
			}
		}
	})
}
