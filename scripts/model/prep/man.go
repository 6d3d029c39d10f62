package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
)

// manLines renders a gzip-compressed man page to plain text with groff
// (tables through tbl, no hyphenation, lines long enough that a paragraph
// is one line) and returns its lines without the running header and
// footer. A page that only sources another one (".so man3/printf.3")
// has no text of its own: nil.
func manLines(ctx context.Context, path string) ([]string, error) {
	src, err := readGzip(path)
	if err != nil {
		return nil, err
	}
	if isStub(src) {
		return nil, nil
	}
	cmd := exec.CommandContext(ctx, "groff", "-k", "-t", "-mandoc", "-Tutf8",
		"-rHY=0", "-rLL=2000n", "-P-cbou")
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "LC_ALL=C.UTF-8"}
	cmd.Stdin = bytes.NewReader(src)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("failed to render %s: %w: %s", path, err, strings.TrimSpace(stderr.String()))
	}
	var lines []string
	for _, l := range strings.Split(string(out), "\n") {
		if l = strings.TrimSpace(l); l != "" {
			lines = append(lines, l)
		}
	}
	if len(lines) < 2 {
		return nil, nil
	}
	return lines[1 : len(lines)-1], nil
}

func readGzip(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("failed to open %s: %w", path, err)
	}
	defer f.Close()
	z, err := gzip.NewReader(f)
	if err != nil {
		return nil, fmt.Errorf("failed to read %s: %w", path, err)
	}
	b, err := io.ReadAll(z)
	if err != nil {
		return nil, fmt.Errorf("failed to read %s: %w", path, err)
	}
	return b, nil
}

// isStub reports whether a page is only comments and a .so request.
func isStub(src []byte) bool {
	so := false
	for _, l := range strings.Split(string(src), "\n") {
		l = strings.TrimSpace(l)
		switch {
		case l == "" || strings.HasPrefix(l, `.\"`) || strings.HasPrefix(l, `'\"`):
		case strings.HasPrefix(l, ".so "):
			so = true
		default:
			return false
		}
	}
	return so
}
