package search

import (
	"path"
	"strings"
)

// DocOfMemory is a file of the memory tool's memories/ folder as a
// document, indexed as a record is: its title (the first line that says
// something, else the file's name) counts most, then where it is (the
// folders and name of its path, so that repo/build.md is found by
// "build"), then the rest of its text. It has no type and no domain, so
// that a filter by either leaves memories out, as it leaves out records of
// other kinds.
func DocOfMemory(p, title, text string) Doc {
	where := strings.Split(strings.TrimPrefix(p, "memories/"), "/")
	if n := len(where); n > 0 {
		where[n-1] = strings.TrimSuffix(where[n-1], path.Ext(where[n-1]))
	}
	body := strings.TrimSpace(text)
	if first, rest, _ := strings.Cut(body, "\n"); strings.TrimSpace(strings.TrimLeft(first, "# ")) == title {
		body = rest
	}
	var d Doc
	d.text = [numFields]string{
		fieldStrong: title,
		fieldMeta:   strings.Join(where, "\n"),
		fieldBody:   body,
	}
	return d
}

// MemoryTitle is what a memory file is called: its first line that says
// something, without a Markdown heading's marks, cut to a line's length;
// else its file name.
func MemoryTitle(p, text string) string {
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(strings.TrimLeft(strings.TrimSpace(line), "#"))
		if line == "" || line == "---" {
			continue
		}
		if r := []rune(line); len(r) > 100 {
			line = string(r[:99]) + "…"
		}
		return line
	}
	return path.Base(p)
}
