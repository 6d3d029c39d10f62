package cli

import (
	"fmt"
	"io"
	"unicode/utf8"
)

// escaper is stdout for what people read: records keep what was written,
// but a terminal must not run what a record holds. Escape sequences (ANSI
// colours and cursor moves, OSC titles and hyperlinks, a clipboard write)
// start with a control character, so every control character but tab and
// newline is shown escaped: C0 and DEL as \x1b, C1 (U+0080 to U+009F) as
// \u009b, and a byte that is no UTF-8 as \xff. It escapes whether or not
// stdout is a terminal: output piped to a file or another program is
// read on a terminal later, by a person or an agent. --json and the
// commands whose stdout is data (hook, mcp serve, export, show when piped)
// write to the raw stdout instead (Env.raw).
type escaper struct {
	w io.Writer
	// pending is the start of a UTF-8 sequence the last write ended in:
	// a buffered writer cuts its output anywhere.
	pending []byte
}

func (e *escaper) Write(p []byte) (int, error) {
	n := len(p)
	if len(e.pending) > 0 {
		p = append(e.pending, p...)
		e.pending = nil
	}
	safe := 0 // p[:safe] needs no escape
	for safe < len(p) && plain(p[safe]) {
		safe++
	}
	if safe == len(p) {
		_, err := e.w.Write(p)
		return n, err
	}
	out := make([]byte, 0, len(p)+16)
	out = append(out, p[:safe]...)
	for i := safe; i < len(p); {
		b := p[i]
		switch {
		case plain(b):
			out = append(out, b)
			i++
			continue
		case b < 0x80:
			out = fmt.Appendf(out, `\x%02x`, b)
			i++
			continue
		}
		r, size := utf8.DecodeRune(p[i:])
		switch {
		case r == utf8.RuneError && size <= 1 && !utf8.FullRune(p[i:]):
			e.pending = append(e.pending[:0], p[i:]...) // the rest comes with the next write
			i = len(p)
		case r == utf8.RuneError && size <= 1:
			out = fmt.Appendf(out, `\x%02x`, b)
			i++
		case r < 0xa0:
			out = fmt.Appendf(out, `\u%04x`, r)
			i += size
		default:
			out = append(out, p[i:i+size]...)
			i += size
		}
	}
	_, err := e.w.Write(out)
	return n, err
}

// plain is an ASCII byte a terminal only prints: no control character but
// tab and newline.
func plain(b byte) bool { return b == '\t' || b == '\n' || (b >= 0x20 && b < 0x7f) }

// Flush writes what the last write left pending: a UTF-8 sequence never
// finished, shown as the bytes it is.
func (e *escaper) Flush() error {
	if len(e.pending) == 0 {
		return nil
	}
	var out []byte
	for _, b := range e.pending {
		out = fmt.Appendf(out, `\x%02x`, b)
	}
	e.pending = nil
	_, err := e.w.Write(out)
	return err
}
