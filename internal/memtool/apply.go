package memtool

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/planq-dev/planq/internal/atomicfile"
)

// Result is what a command did: the answer the model is shown and, for a
// change, its commit and the files it changed (relative to the folder's
// Root).
type Result struct {
	Text   string   `json:"text"`
	Commit string   `json:"commit,omitempty"`
	Paths  []string `json:"paths,omitempty"`
}

// Apply carries out c on the folder. A command the protocol refuses
// returns a *Refusal, whose text is the answer; any other error is
// planq's own (the folder's lock busy, git failing), and then nothing was
// changed.
func Apply(ctx context.Context, f *Folder, c Command) (Result, error) {
	switch c.Command {
	case "view":
		return f.view(c)
	case "create":
		return f.change(ctx, c, f.create)
	case "str_replace":
		return f.change(ctx, c, f.strReplace)
	case "insert":
		return f.change(ctx, c, f.insert)
	case "delete":
		return f.change(ctx, c, f.delete)
	case "rename":
		return f.change(ctx, c, f.rename)
	}
	return Result{}, unknownCommand(c.Command)
}

// edit is one change, made under the folder's lock: what it answers, the
// snapshot of the files it touches (taken before it touches them) and the
// files it changed, relative to the memories folder; no files means there
// is nothing to commit.
type edit struct {
	text    string
	before  snapshot
	changed []string
	subject string
}

func (f *Folder) change(ctx context.Context, c Command, do func(Command) (edit, error)) (Result, error) {
	unlock, err := f.Lock(ctx)
	if err != nil {
		return Result{}, err
	}
	defer unlock()
	e, err := do(c)
	if err != nil {
		return Result{}, err
	}
	if len(e.changed) == 0 {
		return Result{Text: e.text}, nil
	}
	commit, err := f.commit(ctx, e.before, e.changed, e.subject)
	if err != nil {
		return Result{}, err
	}
	paths := make([]string, len(e.changed))
	for i, rel := range e.changed {
		paths[i] = tracked(rel)
	}
	return Result{Text: e.text, Commit: commit, Paths: paths}, nil
}

// resolve maps a command's path parameter, refusing a missing one.
func (f *Folder) resolve(param, p, command string) (spot, error) {
	if p == "" {
		return spot{}, missing(param, command)
	}
	rel, err := Rel(p)
	if err != nil {
		return spot{}, err
	}
	return f.locate(p, rel)
}

func (f *Folder) view(c Command) (Result, error) {
	s, err := f.resolve("path", c.Path, "view")
	if err != nil {
		return Result{}, err
	}
	switch {
	case s.isDir():
		if c.ViewRange != nil {
			return Result{}, viewRangeOnDirectory()
		}
		text, err := f.listing(c.Path, s)
		return Result{Text: text}, err
	case !s.isFile():
		return Result{}, notFoundView(c.Path)
	}
	content, err := readText(c.Path, s)
	if err != nil {
		return Result{}, err
	}
	lines := splitLines(content)
	if len(lines) > maxLines {
		return Result{}, tooManyLines(c.Path)
	}
	from, to := 1, len(lines)
	if c.ViewRange != nil {
		r := c.ViewRange
		switch {
		case len(r) != 2:
			return Result{}, viewRangeShape()
		case r[0] < 1 || r[0] > len(lines):
			return Result{}, viewRangeFirst(r, len(lines))
		case r[1] > len(lines):
			return Result{}, viewRangeBeyond(r, len(lines))
		case r[1] != -1 && r[1] < r[0]:
			return Result{}, viewRangeBackwards(r)
		}
		from = r[0]
		if r[1] != -1 {
			to = r[1]
		}
	}
	return Result{Text: numbered(fileHeader(c.Path), lines, from, to)}, nil
}

// maxLines is the most lines a file view shows, as the protocol has it.
const maxLines = 999999

// splitLines cuts text into its lines; a final newline ends the last line
// rather than starting an empty one, so "a\nb\n" has two lines and an
// empty file none.
func splitLines(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(strings.TrimSuffix(s, "\n"), "\n")
}

// numbered is header then lines from..to (1-based, inclusive), each with
// its number right-aligned in six columns and a tab.
func numbered(header string, lines []string, from, to int) string {
	var b strings.Builder
	b.WriteString(header)
	for n := from; n <= to && n <= len(lines); n++ {
		fmt.Fprintf(&b, "\n%6d\t%s", n, lines[n-1])
	}
	return b.String()
}

// listing lists the directory at s two levels deep, leaving out hidden
// items and node_modules: a size and a path a line, the directory first.
// A directory's size is what the files under it hold, so that a listing
// says the same on every machine and file system.
func (f *Folder) listing(p string, s spot) (string, error) {
	base := display(s.rel)
	w := &dirWalk{}
	total, err := w.walk(s.full, "", 1)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	b.WriteString(listingHeader(p))
	fmt.Fprintf(&b, "\n%s\t%s", humanSize(total), base)
	for _, it := range w.items {
		fmt.Fprintf(&b, "\n%s\t%s/%s", humanSize(it.size), base, it.path)
	}
	return b.String(), nil
}

// dirWalk gathers the items of a listing: each path two levels deep, and
// its size.
type dirWalk struct {
	items []listedItem
}

type listedItem struct {
	path string
	size int64
}

// walk lists the directory dir, at rel, depth levels down, and returns
// the size of the files under it.
func (w *dirWalk) walk(dir, rel string, depth int) (int64, error) {
	entries, err := os.ReadDir(dir)
	if os.IsNotExist(err) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("failed to read %s: %w", dir, err)
	}
	sort.Slice(entries, func(i, j int) bool { return entries[i].Name() < entries[j].Name() })
	var total int64
	for _, e := range entries {
		name := e.Name()
		if strings.HasPrefix(name, ".") || name == "node_modules" || e.Type()&os.ModeSymlink != 0 {
			continue
		}
		size, err := w.entry(dir, rel, depth, e)
		if err != nil {
			return 0, err
		}
		total += size
	}
	return total, nil
}

// entry lists e, in dir at rel, depth levels down, and returns its size.
func (w *dirWalk) entry(dir, rel string, depth int, e os.DirEntry) (int64, error) {
	sub := e.Name()
	if rel != "" {
		sub = rel + "/" + sub
	}
	at := len(w.items)
	if depth <= 2 {
		w.items = append(w.items, listedItem{path: sub})
	}
	var size int64
	if e.IsDir() {
		if depth <= 2 {
			w.items[at].path += "/"
		}
		var err error
		if size, err = w.walk(filepath.Join(dir, e.Name()), sub, depth+1); err != nil {
			return 0, err
		}
	} else if info, err := e.Info(); err == nil {
		size = info.Size()
	}
	if depth <= 2 {
		w.items[at].size = size
	}
	return size, nil
}

// humanSize writes a size as the protocol's listings do: 0B, 512B, 1K,
// 5.5K, 1.2M.
func humanSize(n int64) string {
	units := []string{"B", "K", "M", "G"}
	v, i := float64(n), 0
	for v >= 1024 && i < len(units)-1 {
		v /= 1024
		i++
	}
	if v == float64(int64(v)) {
		return fmt.Sprintf("%d%s", int64(v), units[i])
	}
	return fmt.Sprintf("%.1f%s", v, units[i])
}

// write checks data as every file of the layer is checked, then replaces
// the file at s with it atomically.
func (f *Folder) write(p string, s spot, data []byte) error {
	if f.Check != nil {
		if err := f.Check(p, data); err != nil {
			return checkFailed(err)
		}
	}
	if err := os.MkdirAll(filepath.Dir(s.full), 0o755); err != nil {
		f.pruneAbove(s.rel)
		return tooLong(p, fmt.Errorf("failed to create %s: %w", filepath.Dir(s.full), err))
	}
	if err := atomicfile.WriteFile(s.full, data, 0o644); err != nil {
		f.pruneAbove(s.rel)
		return tooLong(p, fmt.Errorf("failed to write %s: %w", s.full, err))
	}
	return nil
}

func (f *Folder) create(c Command) (edit, error) {
	s, err := f.resolve("path", c.Path, "create")
	if err != nil {
		return edit{}, err
	}
	if c.FileText == nil {
		return edit{}, missing("file_text", "create")
	}
	switch {
	case strings.HasSuffix(c.Path, "/"):
		return edit{}, createDirectory(c.Path)
	case s.fileAbove != "":
		return edit{}, notDirectory(c.Path, s.fileAbove)
	case s.info != nil || s.rel == "":
		return edit{}, exists(c.Path)
	}
	before, err := f.snapshot(s.rel)
	if err != nil {
		return edit{}, err
	}
	if err := f.write(c.Path, s, []byte(*c.FileText)); err != nil {
		return edit{}, err
	}
	return edit{text: created(c.Path), before: before, changed: []string{s.rel}, subject: "create " + display(s.rel)}, nil
}

// textFile locates the file a command edits and reads it: a directory, or
// nothing, is not there for an edit.
func (f *Folder) textFile(c Command, notThere func(string) error) (spot, string, error) {
	s, err := f.resolve("path", c.Path, c.Command)
	if err != nil {
		return spot{}, "", err
	}
	if !s.isFile() {
		return spot{}, "", notThere(c.Path)
	}
	content, err := readText(c.Path, s)
	return s, content, err
}

func (f *Folder) strReplace(c Command) (edit, error) {
	switch {
	case c.Path == "":
		return edit{}, missing("path", "str_replace")
	case c.OldStr == nil:
		return edit{}, missing("old_str", "str_replace")
	case *c.OldStr == "":
		return edit{}, emptyOldStr()
	}
	s, content, err := f.textFile(c, notFoundReplace)
	if err != nil {
		return edit{}, err
	}
	oldStr, newStr := *c.OldStr, ""
	if c.NewStr != nil {
		newStr = *c.NewStr
	}
	switch n := strings.Count(content, oldStr); n {
	case 0:
		return edit{}, notVerbatim(oldStr, c.Path)
	case 1:
	default:
		var lines []int
		for at, rest := 0, content; ; {
			i := strings.Index(rest, oldStr)
			if i < 0 {
				break
			}
			lines = append(lines, strings.Count(content[:at+i], "\n")+1)
			at += i + len(oldStr)
			rest = content[at:]
		}
		return edit{}, multiple(oldStr, lines)
	}
	if newStr == oldStr {
		return edit{}, unchanged(c.Path)
	}
	pos := strings.Index(content, oldStr)
	updated := content[:pos] + newStr + content[pos+len(oldStr):]
	before, err := f.snapshot(s.rel)
	if err != nil {
		return edit{}, err
	}
	if err := f.write(c.Path, s, []byte(updated)); err != nil {
		return edit{}, err
	}
	// The snippet: from two lines before the change to two after its end.
	first := strings.Count(content[:pos], "\n")
	last := first + strings.Count(newStr, "\n")
	lines := splitLines(updated)
	from, to := max(0, first-2)+1, min(len(lines), last+3)
	return edit{text: numbered(edited, lines, from, to), before: before, changed: []string{s.rel},
		subject: "edit " + display(s.rel)}, nil
}

func (f *Folder) insert(c Command) (edit, error) {
	switch {
	case c.Path == "":
		return edit{}, missing("path", "insert")
	case c.InsertLine == nil:
		return edit{}, missing("insert_line", "insert")
	case c.InsertText == nil:
		return edit{}, missing("insert_text", "insert")
	}
	s, content, err := f.textFile(c, notFound)
	if err != nil {
		return edit{}, err
	}
	lines := splitLines(content)
	at := *c.InsertLine
	if at < 0 || at > len(lines) {
		return edit{}, insertLineRange(at, len(lines))
	}
	out := make([]string, 0, len(lines)+1)
	out = append(out, lines[:at]...)
	out = append(out, strings.TrimSuffix(*c.InsertText, "\n"))
	out = append(out, lines[at:]...)
	before, err := f.snapshot(s.rel)
	if err != nil {
		return edit{}, err
	}
	if err := f.write(c.Path, s, []byte(strings.Join(out, "\n")+"\n")); err != nil {
		return edit{}, err
	}
	return edit{text: inserted(c.Path), before: before, changed: []string{s.rel}, subject: "insert into " + display(s.rel)}, nil
}

func (f *Folder) delete(c Command) (edit, error) {
	s, err := f.resolve("path", c.Path, "delete")
	if err != nil {
		return edit{}, err
	}
	switch {
	case s.rel == "":
		return edit{}, deleteRoot()
	case s.info == nil:
		return edit{}, notFound(c.Path)
	}
	files := []string{s.rel}
	if s.info.IsDir() {
		if files, err = f.filesUnder(c.Path, s.rel); err != nil {
			return edit{}, err
		}
	}
	before, err := f.snapshot(files...)
	if err != nil {
		return edit{}, err
	}
	if err := os.RemoveAll(s.full); err != nil {
		f.restore(before)
		return edit{}, fmt.Errorf("failed to delete %s: %w", s.full, err)
	}
	f.pruneAbove(s.rel)
	return edit{text: deleted(c.Path), before: before, changed: files, subject: "delete " + display(s.rel)}, nil
}

func (f *Folder) rename(c Command) (edit, error) {
	from, err := f.resolve("old_path", c.OldPath, "rename")
	if err != nil {
		return edit{}, err
	}
	if c.NewPath == "" {
		return edit{}, missing("new_path", "rename")
	}
	to, err := f.resolve("new_path", c.NewPath, "rename")
	if err != nil {
		return edit{}, err
	}
	if err := checkRename(c, from, to); err != nil {
		return edit{}, err
	}
	moved := []string{from.rel}
	if from.info.IsDir() {
		if moved, err = f.filesUnder(c.OldPath, from.rel); err != nil {
			return edit{}, err
		}
	}
	changed := append([]string(nil), moved...)
	for _, rel := range moved {
		changed = append(changed, to.rel+strings.TrimPrefix(rel, from.rel))
	}
	before, err := f.snapshot(changed...)
	if err != nil {
		return edit{}, err
	}
	if err := os.MkdirAll(filepath.Dir(to.full), 0o755); err != nil {
		f.pruneAbove(to.rel)
		return edit{}, tooLong(c.NewPath, fmt.Errorf("failed to create %s: %w", filepath.Dir(to.full), err))
	}
	if err := os.Rename(from.full, to.full); err != nil {
		f.pruneAbove(to.rel)
		return edit{}, tooLong(c.NewPath, fmt.Errorf("failed to rename %s: %w", from.full, err))
	}
	f.pruneAbove(from.rel)
	sort.Strings(changed)
	return edit{text: renamed(c.OldPath, c.NewPath), before: before, changed: changed,
		subject: "rename " + display(from.rel) + " to " + display(to.rel)}, nil
}

// checkRename refuses a rename of the root or of nothing, onto something,
// under a file, into itself, or of a file to a directory.
func checkRename(c Command, from, to spot) error {
	switch {
	case from.rel == "":
		return renameRoot()
	case from.info == nil:
		return notFound(c.OldPath)
	case to.info != nil || to.rel == "":
		return destinationExists(c.NewPath)
	case to.fileAbove != "":
		return notDirectory(c.NewPath, to.fileAbove)
	case strings.HasPrefix(to.rel, from.rel+"/"):
		return intoItself(c.OldPath, c.NewPath)
	case strings.HasSuffix(c.NewPath, "/") && !from.info.IsDir():
		return renameFileToDirectory(c.OldPath, c.NewPath)
	}
	return nil
}
