package cli

import (
	"bufio"
	"io"
	"text/tabwriter"

	"github.com/planq-dev/planq/internal/plural"
)

// table lays out columns. It buffers what it writes: tabwriter writes each
// cell and each run of padding apart, which on an unbuffered stdout is one
// system call each (the 7,000 entries of a log --all spent most of their
// time there).
type table struct {
	*tabwriter.Writer
	buf *bufio.Writer
}

func newTable(w io.Writer) *table {
	buf := bufio.NewWriterSize(w, 64<<10)
	return &table{Writer: tabwriter.NewWriter(buf, 0, 2, 2, ' ', 0), buf: buf}
}

// Flush writes out what the table holds.
func (t *table) Flush() error {
	if err := t.Writer.Flush(); err != nil {
		return err
	}
	return t.buf.Flush()
}

// countOf says n things: "1 note", "3 notes" (plural.Of).
func countOf(n int, noun string) string { return plural.Of(n, noun) }
