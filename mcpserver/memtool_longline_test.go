package mcpserver

import (
	"bytes"
	"io"
	"strings"
	"testing"
)

// A line over maxLine is answered once, as too long, with the limit, and
// skipped whole: what follows it on the same line is never read as a
// message of its own (which answered "not JSON"), and the next line is
// served (issue 36).
func TestLineOverTheLimitIsAnsweredAsTooLong(t *testing.T) {
	ping := `{"jsonrpc":"2.0","id":7,"method":"ping"}` + "\n"
	long := `{"jsonrpc":"2.0","id":2,"method":"ping","params":{"pad":"` + strings.Repeat("a", maxLine+maxLine/4) + `"}}`
	for name, in := range map[string]string{
		"then a line":     long + "\n" + ping,
		"at end of input": ping + long,
	} {
		t.Run(name, func(t *testing.T) {
			var out bytes.Buffer
			g := newLineGuard(strings.NewReader(in), &out)
			passed, err := io.ReadAll(g)
			if err != nil {
				t.Fatal(err)
			}
			if string(passed) != ping {
				t.Errorf("passed on %.200q, want the ping alone", passed)
			}
			want := `{"error":{"code":-32700,"message":"Parse error: message longer than 16 MiB"},"id":null,"jsonrpc":"2.0"}` + "\n"
			if out.String() != want {
				t.Errorf("answered\n%.400s\nwant\n%s", out.String(), want)
			}
		})
	}
}
