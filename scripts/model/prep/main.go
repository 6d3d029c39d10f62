// Command prep writes the training text of planq's default search model:
// the text of the pinned Debian documentation packages (scripts/model/sources),
// one line per paragraph or code line, already cut into the tokens planq
// looks up at run time and joined by spaces, so that fastText's own
// white-space splitting sees exactly planq's tokens. It also writes how
// often each token occurs, for the table builder's frequency weights.
//
// It refuses any input under search/testdata: the search evaluation's
// questions and records are held out of the training text.
//
//	go run ./scripts/model/prep -out corpus.txt -counts counts.tsv
//	go run ./scripts/model/prep -packages   # the pinned packages, as pkg=version
package main

import (
	"bufio"
	"cmp"
	"context"
	"errors"
	"flag"
	"fmt"
	"hash/fnv"
	"io/fs"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"slices"
	"strings"

	"github.com/planq-dev/planq/internal/embed"
	"github.com/planq-dev/planq/scripts/model/sources"
)

type options struct {
	out, counts string
	repo        string
	extra       []string
	packages    bool
	perSource   int
}

func main() {
	var o options
	flag.StringVar(&o.out, "out", "corpus.txt", "training text to write")
	flag.StringVar(&o.counts, "counts", "counts.tsv", "token counts to write (token TAB count, most frequent first)")
	flag.StringVar(&o.repo, "repo", "", "planq's repository, whose search/testdata is refused (default: the git work tree here)")
	flag.Func("extra", "a further plain-text file or directory to learn from (repeatable)", func(s string) error {
		o.extra = append(o.extra, s)
		return nil
	})
	flag.BoolVar(&o.packages, "packages", false, "print the pinned Debian packages as pkg=version and exit")
	flag.IntVar(&o.perSource, "files", 0, "read at most this many files of each package (0: all; for trying the pipeline quickly)")
	flag.Parse()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx, o); err != nil {
		fmt.Fprintln(os.Stderr, "prep:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, o options) error {
	if o.packages {
		for _, s := range sources.Texts {
			fmt.Printf("%s=%s\n", s.Package, s.Version)
		}
		for _, t := range sources.Tools {
			fmt.Printf("%s=%s\n", t.Package, t.Version)
		}
		return nil
	}
	if o.repo == "" {
		top, err := exec.CommandContext(ctx, "git", "rev-parse", "--show-toplevel").Output()
		if err != nil {
			return fmt.Errorf("failed to find the repository (give -repo): %w", err)
		}
		o.repo = strings.TrimSpace(string(top))
	}
	heldOut := filepath.Join(o.repo, "search", "testdata")
	for _, e := range o.extra {
		if err := refuseHeldOut(heldOut, e); err != nil {
			return err
		}
	}
	if err := checkVersions(ctx); err != nil {
		return err
	}

	f, err := os.Create(o.out)
	if err != nil {
		return fmt.Errorf("failed to create the training text: %w", err)
	}
	defer f.Close()
	c := newCorpus(f)
	for _, s := range sources.Texts {
		files, err := packageFiles(ctx, s)
		if err != nil {
			return err
		}
		if o.perSource > 0 && len(files) > o.perSource {
			files = files[:o.perSource]
		}
		before := c.stats
		for _, path := range files {
			if err := refuseHeldOut(heldOut, path); err != nil {
				return err
			}
			lines, err := fileLines(ctx, s.Kind, path)
			if err != nil {
				return err
			}
			c.add(lines)
		}
		fmt.Fprintf(os.Stderr, "prep: %-18s %s  %6d files %9d lines %11d tokens\n", s.Package, s.Version,
			len(files), c.stats.lines-before.lines, c.stats.tokens-before.tokens)
	}
	for _, e := range o.extra {
		before := c.stats
		if err := c.addPlain(e); err != nil {
			return err
		}
		fmt.Fprintf(os.Stderr, "prep: %-18s %9d lines %11d tokens\n", e, c.stats.lines-before.lines, c.stats.tokens-before.tokens)
	}
	if err := c.w.Flush(); err != nil {
		return fmt.Errorf("failed to write the training text: %w", err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("failed to write the training text: %w", err)
	}
	fmt.Fprintf(os.Stderr, "prep: total %d lines, %d tokens, %d distinct, %d repeated lines dropped\n",
		c.stats.lines, c.stats.tokens, len(c.counts), c.stats.dropped)
	return writeCounts(o.counts, c.counts)
}

// refuseHeldOut fails when path is, or is inside, the held-out directory.
func refuseHeldOut(heldOut, path string) error {
	abs, err := resolve(path)
	if err != nil {
		return err
	}
	held, err := resolve(heldOut)
	if err != nil {
		return err
	}
	if rel, err := filepath.Rel(held, abs); err == nil && rel != ".." && !strings.HasPrefix(rel, "../") {
		return fmt.Errorf("refusing %s: search/testdata holds the evaluation, which the model must not learn from", path)
	}
	return nil
}

// resolve makes a path absolute with its symbolic links followed, as far
// as it exists.
func resolve(path string) (string, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", fmt.Errorf("failed to resolve %s: %w", path, err)
	}
	if r, err := filepath.EvalSymlinks(abs); err == nil {
		return r, nil
	}
	return abs, nil
}

// checkVersions refuses to go on unless every pinned package is installed
// at its pinned version: another version is another text and another model.
func checkVersions(ctx context.Context) error {
	type pin struct{ pkg, version string }
	var pins []pin
	for _, s := range sources.Texts {
		pins = append(pins, pin{s.Package, s.Version})
	}
	for _, t := range sources.Tools {
		pins = append(pins, pin{t.Package, t.Version})
	}
	var bad []string
	for _, p := range pins {
		out, err := exec.CommandContext(ctx, "dpkg-query", "-W", "-f=${Version}", p.pkg).Output()
		if got := strings.TrimSpace(string(out)); err != nil || got != p.version {
			bad = append(bad, fmt.Sprintf("%s is %q, want %s", p.pkg, got, p.version))
		}
	}
	if len(bad) > 0 {
		return fmt.Errorf("packages not at their pinned versions (train.sh installs them): %s", strings.Join(bad, "; "))
	}
	return nil
}

// packageFiles lists the files of a package that the source reads, sorted.
func packageFiles(ctx context.Context, s sources.Source) ([]string, error) {
	out, err := exec.CommandContext(ctx, "dpkg-query", "-L", s.Package).Output()
	if err != nil {
		return nil, fmt.Errorf("failed to list the files of %s: %w", s.Package, err)
	}
	var files []string
	for _, p := range strings.Split(string(out), "\n") {
		if !s.Include.MatchString(p) || s.Exclude != nil && s.Exclude.MatchString(p) {
			continue
		}
		if st, err := os.Stat(p); err != nil || !st.Mode().IsRegular() {
			continue
		}
		files = append(files, p)
	}
	slices.Sort(files)
	return slices.Compact(files), nil
}

func fileLines(ctx context.Context, kind sources.Kind, path string) ([]string, error) {
	switch kind {
	case sources.HTML:
		f, err := os.Open(path)
		if err != nil {
			return nil, fmt.Errorf("failed to open %s: %w", path, err)
		}
		defer f.Close()
		lines, err := htmlLines(f)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		return lines, nil
	case sources.Man:
		return manLines(ctx, path)
	case sources.WordNet:
		return wordnetLines(path)
	}
	return nil, fmt.Errorf("%s: unknown kind %v", path, kind)
}

// corpus writes token lines and counts tokens. A line met more than
// maxRepeats times is boilerplate (a copyright line, a generated heading)
// and is written only that often.
type corpus struct {
	w      *bufio.Writer
	seen   map[uint64]uint8
	counts map[string]int
	stats  struct{ lines, tokens, dropped int }
}

const maxRepeats = 3

func newCorpus(f *os.File) *corpus {
	return &corpus{w: bufio.NewWriterSize(f, 1<<20), seen: map[uint64]uint8{}, counts: map[string]int{}}
}

func (c *corpus) add(lines []string) {
	for _, l := range lines {
		toks := embed.Tokens(l)
		if len(toks) == 0 {
			continue
		}
		line := strings.Join(toks, " ")
		h := fnv.New64a()
		h.Write([]byte(line))
		k := h.Sum64()
		if c.seen[k] >= maxRepeats {
			c.stats.dropped++
			continue
		}
		c.seen[k]++
		// A bufio.Writer keeps its first error for Flush, which run checks.
		_, _ = c.w.WriteString(line + "\n")
		c.stats.lines++
		c.stats.tokens += len(toks)
		for _, t := range toks {
			c.counts[t]++
		}
	}
}

// addPlain adds a plain-text file, or every file under a directory in
// lexical order, a line of text per line.
func (c *corpus) addPlain(root string) error {
	return filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return fmt.Errorf("failed to read %s: %w", path, err)
		}
		if !d.Type().IsRegular() {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return fmt.Errorf("failed to read %s: %w", path, err)
		}
		c.add(strings.Split(string(b), "\n"))
		return nil
	})
}

// writeCounts writes token TAB count, most frequent first, ties in byte order.
func writeCounts(path string, counts map[string]int) error {
	type tc struct {
		tok string
		n   int
	}
	all := make([]tc, 0, len(counts))
	for t, n := range counts {
		all = append(all, tc{t, n})
	}
	slices.SortFunc(all, func(a, b tc) int {
		return cmp.Or(cmp.Compare(b.n, a.n), strings.Compare(a.tok, b.tok))
	})
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("failed to create the token counts: %w", err)
	}
	w := bufio.NewWriter(f)
	for _, x := range all {
		fmt.Fprintf(w, "%s\t%d\n", x.tok, x.n)
	}
	return errors.Join(w.Flush(), f.Close())
}
