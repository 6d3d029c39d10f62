//go:build linux

package cli

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

// TestControlCharactersReachNoTerminal: a record's escape sequences come
// out escaped on a terminal, from show as from log; show piped prints the
// file as it is (issue 25, item 11).
func TestControlCharactersReachNoTerminal(t *testing.T) {
	dir, run := terminalProject(t)
	code, stdout, stderr := run(nil, "log", "add", "red \x1b[31mALERT\x1b[0m title \x1b]0;pwned\x07 c1 \u009b end", "-q")
	if code != 0 {
		t.Fatalf("log add: exit %d\n%s", code, stderr)
	}
	id := strings.TrimSpace(stdout)
	const escaped = `red \x1b[31mALERT\x1b[0m title \x1b]0;pwned\x07 c1 \u009b end`
	for _, args := range [][]string{{"show", id}, {"log"}} {
		control, tty := openTerminal(t)
		var stderr bytes.Buffer
		if code := Run(context.Background(), append([]string{"-C", dir}, args...), strings.NewReader(""), tty, &stderr); code != 0 {
			t.Fatalf("%v on a terminal: exit %d\n%s", args, code, stderr.String())
		}
		got := drain(t, control)
		if !strings.Contains(got, escaped) || strings.ContainsAny(got, "\x1b\x07\u009b") {
			t.Errorf("%v on a terminal showed %q", args, got)
		}
	}
	// Piped, show prints the file byte for byte, and log escapes.
	if code, stdout, _ := run(nil, "show", id); code != 0 || !strings.Contains(stdout, "\x1b[31mALERT\x1b[0m title \x1b]0;pwned\x07 c1 \u009b end") {
		t.Errorf("show piped: exit %d, %q", code, stdout)
	}
	if code, stdout, _ := run(nil, "log"); code != 0 || !strings.Contains(stdout, escaped) {
		t.Errorf("log piped: exit %d, %q", code, stdout)
	}
}
