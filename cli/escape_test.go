package cli

import (
	"bytes"
	"testing"
)

// Control characters come out escaped, whatever the writes cut them into;
// text, tabs and newlines as they are (issue 25, item 11).
func TestEscaperShowsControlCharacters(t *testing.T) {
	for in, want := range map[string]string{
		"plain text\twith a tab\n":            "plain text\twith a tab\n",
		"caf\u00e9, na\u00efve, \u65e5\u672c": "caf\u00e9, na\u00efve, \u65e5\u672c",
		"\x1b[31mred\x1b[0m":                  `\x1b[31mred\x1b[0m`,
		"\x1b]0;title\x07":                    `\x1b]0;title\x07`,
		"\x1b]8;;http://x\x1b\\link":          `\x1b]8;;http://x\x1b\link`,
		"cr\rbs\bdel\x7fnul\x00":              `cr\x0dbs\x08del\x7fnul\x00`,
		"c1 \u009b31m \u0085 \u00a0":          `c1 \u009b31m \u0085 ` + "\u00a0",
		"no utf-8 \xff\x9b":                   `no utf-8 \xff\x9b`,
	} {
		// Written whole, and one byte at a time (a buffered writer cuts
		// anywhere, a rune in two included).
		for _, cut := range []int{len(in) + 1, 1} {
			var out bytes.Buffer
			e := &escaper{w: &out}
			for rest := in; rest != ""; {
				n := min(cut, len(rest))
				if w, err := e.Write([]byte(rest[:n])); err != nil || w != n {
					t.Fatalf("%q: wrote %d of %d: %v", in, w, n, err)
				}
				rest = rest[n:]
			}
			if err := e.Flush(); err != nil {
				t.Fatal(err)
			}
			if out.String() != want {
				t.Errorf("%q in writes of %d: %q, want %q", in, cut, out.String(), want)
			}
		}
	}
	// A sequence never finished is shown as its bytes.
	var out bytes.Buffer
	e := &escaper{w: &out}
	_, _ = e.Write([]byte("cut \xe6\x97"))
	if err := e.Flush(); err != nil || out.String() != `cut \xe6\x97` {
		t.Errorf("an unfinished sequence: %q, %v", out.String(), err)
	}
}
