// Command kbreal builds the knowledge base of real projects with planq and
// says, per project, what came of it: how many records 'planq import mulch'
// imported (when the project has .mulch), how many records 'planq kb
// bootstrap' created, how many articles there are, how many of them say
// nothing but their own slug and title, how many have a description that only
// repeats their name, how many are disputed (and how many the dry run said
// would be), and whether 'planq kb update' after the bootstrap succeeds.
// After the table it lists the articles that say only their slug and, for
// each disputed article, its Conflict lines, so that a person can read
// whether each dispute is real.
//
//	go run ./scripts/kbreal [-keep] SOURCE...
//
// Each SOURCE is a git repository (a bare mirror or a checkout). It is cloned
// with its history, and HEAD's files are checked out, less any blob the
// repository lacks. Each project gets a fresh planq project, under a
// temporary HOME that holds no agent memories. Every command's output is
// kept under the temporary directory; -keep keeps it. CI does not run it (it
// needs the projects); it exits 1 when 'planq kb update' fails or an article
// says only its slug.
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"text/tabwriter"
)

var (
	keep     = flag.Bool("keep", false, "keep the temporary directory and print its path")
	planqBin string
	env      []string
)

// step is one command run for a project: its name, exit code and the last
// line it wrote to stderr.
type step struct {
	name     string
	code     int
	lastErr  string
	stdout   []byte
	stderrAt string
}

// project is what one SOURCE came to.
type project struct {
	name, source, dir, code string
	steps                   []*step
	imported                string // records imported, or "-"
	created                 string // records bootstrap created, or "-"
	articles                int
	onlySlug                []string
	descRepeats             []string
	disputed                []disputedArticle
	disputedOK              bool
	dryDisputed             string
	dryDisputedPaths        []string
	updateCode              string
	problems                []string
}

type disputedArticle struct {
	Path     string   `json:"path"`
	Title    string   `json:"title"`
	Conflict []string `json:"conflict"`
}

func main() {
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: go run ./scripts/kbreal [-keep] SOURCE...")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() == 0 {
		flag.Usage()
		os.Exit(2)
	}
	root, err := moduleRoot()
	check(err)
	tmp, err := os.MkdirTemp("", "planq-kbreal-")
	check(err)
	if *keep {
		fmt.Fprintf(os.Stderr, "kept: %s\n", tmp)
	}
	status := run(root, tmp, flag.Args())
	if *keep {
		fmt.Printf("\nkept: %s\n", tmp)
	} else {
		os.RemoveAll(tmp)
	}
	os.Exit(status)
}

func run(root, tmp string, sources []string) int {
	planqBin = filepath.Join(tmp, "planq")
	build := exec.Command("go", "build", "-o", planqBin, "./cmd/planq")
	build.Dir = root
	build.Stdout, build.Stderr = os.Stderr, os.Stderr
	check(build.Run())

	home := filepath.Join(tmp, "home")
	claude := filepath.Join(tmp, "agents", "claude")
	codex := filepath.Join(tmp, "agents", "codex")
	for _, d := range []string{home, claude, codex} {
		check(os.MkdirAll(d, 0o755))
	}
	gitconfig := filepath.Join(home, ".gitconfig")
	check(os.WriteFile(gitconfig, []byte("[user]\n\tname = kbreal\n\temail = kbreal@example.com\n[init]\n\tdefaultBranch = main\n"), 0o644))
	// The caller's own planq and git settings stay out.
	for _, kv := range os.Environ() {
		if strings.HasPrefix(kv, "PLANQ_") || (strings.HasPrefix(kv, "GIT_") && !strings.HasPrefix(kv, "GIT_SSL_")) {
			continue
		}
		env = append(env, kv)
	}
	env = append(env, "HOME="+home, "PLANQ_HOME="+filepath.Join(home, ".planq"), "GIT_CONFIG_NOSYSTEM=1",
		"GIT_CONFIG_GLOBAL="+gitconfig, "CLAUDE_CONFIG_DIR="+claude, "CODEX_HOME="+codex)

	var projects []*project
	for i, src := range sources {
		p := &project{name: projectName(src, i+1), source: src, imported: "-", created: "-", dryDisputed: "-", updateCode: "-"}
		p.dir = filepath.Join(tmp, p.name)
		p.code = filepath.Join(p.dir, "code")
		check(os.MkdirAll(p.dir, 0o755))
		fmt.Fprintf(os.Stderr, "%s: %s\n", p.name, src)
		measure(p, filepath.Join(home, ".planq"))
		projects = append(projects, p)
	}
	return report(projects)
}

// measure clones p's source, builds its knowledge base and reads the articles.
func measure(p *project, planqHome string) {
	if err := checkout(p); err != nil {
		p.problems = append(p.problems, "checkout: "+err.Error())
		return
	}
	p.planq("init", "init", "--project", p.name)
	p.planq("create", "create", "imp", "--here")
	if fi, err := os.Stat(filepath.Join(p.code, ".mulch")); err == nil && fi.IsDir() {
		if s := p.planq("import", "import", "mulch", "--json"); s.code == 0 {
			var res struct {
				Records []struct {
					Status string `json:"status"`
				} `json:"records"`
			}
			if json.Unmarshal(s.stdout, &res) == nil {
				n := 0
				for _, r := range res.Records {
					if r.Status == "imported" {
						n++
					}
				}
				p.imported = strconv.Itoa(n)
			}
		}
		p.planq("promote", "context", "promote", "--all")
	}
	if s := p.planq("bootstrap-dry", "kb", "bootstrap", "--dry-run", "--json"); s.code == 0 {
		var res struct {
			Articles map[string]json.RawMessage `json:"articles"`
		}
		if json.Unmarshal(s.stdout, &res) == nil {
			raw := res.Articles["disputed"]
			var list []string
			var n float64
			switch {
			case len(raw) == 0 || string(raw) == "null":
				p.dryDisputed = "0"
			case json.Unmarshal(raw, &list) == nil:
				p.dryDisputed = strconv.Itoa(len(list))
				p.dryDisputedPaths = list
			case json.Unmarshal(raw, &n) == nil:
				p.dryDisputed = strconv.FormatFloat(n, 'f', -1, 64)
			}
		}
	}
	if s := p.planq("bootstrap", "kb", "bootstrap", "--json"); s.code == 0 {
		var res struct {
			Created []json.RawMessage `json:"created"`
		}
		if json.Unmarshal(s.stdout, &res) == nil {
			p.created = strconv.Itoa(len(res.Created))
		}
	}
	p.updateCode = strconv.Itoa(p.planq("update", "kb", "update", "--json").code)
	p.planq("list", "kb", "list", "--json")
	if s := p.planq("disputed", "kb", "disputed", "--json"); s.code == 0 {
		if err := json.Unmarshal(s.stdout, &p.disputed); err == nil {
			p.disputedOK = true
		} else {
			p.problems = append(p.problems, "kb disputed --json: "+err.Error())
		}
	}
	if err := readArticles(p, planqHome); err != nil {
		p.problems = append(p.problems, "articles: "+err.Error())
	}
}

// checkout clones p.source into p.code without checking it out, then checks
// out HEAD's files whose blobs the repository holds.
func checkout(p *project) error {
	if _, err := p.git("clone", "", "clone", "-q", "-n", p.source, p.code); err != nil {
		return err
	}
	tree, err := p.git("ls-tree", p.code, "ls-tree", "-r", "-z", "--format=%(objecttype) %(objectname) %(path)", "HEAD")
	if err != nil {
		return err
	}
	type entry struct{ oid, path string }
	var blobs []entry
	var oids bytes.Buffer
	for _, rec := range strings.Split(string(tree), "\x00") {
		typ, rest, ok := strings.Cut(rec, " ")
		if !ok || typ != "blob" { // submodules (commit) are not files of this repository
			continue
		}
		oid, path, ok := strings.Cut(rest, " ")
		if !ok {
			continue
		}
		blobs = append(blobs, entry{oid, path})
		oids.WriteString(oid + "\n")
	}
	cmd := exec.Command("git", "cat-file", "--batch-check")
	cmd.Dir, cmd.Env, cmd.Stdin = p.code, env, &oids
	out, err := cmd.Output()
	if err != nil {
		return fmt.Errorf("git cat-file --batch-check: %w", err)
	}
	missing := map[string]bool{}
	for _, l := range strings.Split(string(out), "\n") {
		if oid, ok := strings.CutSuffix(l, " missing"); ok {
			missing[oid] = true
		}
	}
	var list bytes.Buffer
	skipped := 0
	for _, b := range blobs {
		if missing[b.oid] {
			skipped++
			continue
		}
		list.WriteString(b.path + "\x00")
	}
	if skipped > 0 {
		fmt.Fprintf(os.Stderr, "%s: %d of %d files left out (their blobs are missing)\n", p.name, skipped, len(blobs))
	}
	pathspec := filepath.Join(p.dir, "checkout-paths")
	if err := os.WriteFile(pathspec, list.Bytes(), 0o644); err != nil {
		return err
	}
	cmd = exec.Command("git", "--literal-pathspecs", "checkout", "-q", "HEAD", "--pathspec-from-file="+pathspec, "--pathspec-file-nul")
	cmd.Dir, cmd.Env = p.code, env
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("git checkout: %w: %s", err, lastLine(string(out)))
	}
	return nil
}

// git runs git for p, its output saved as <name>.out and <name>.err.
func (p *project) git(name, dir string, args ...string) ([]byte, error) {
	s := p.exec(name, dir, "git", args...)
	if s.code != 0 {
		return nil, fmt.Errorf("git %s: exit %d: %s", args[0], s.code, s.lastErr)
	}
	return s.stdout, nil
}

// planq runs planq in p's checkout.
func (p *project) planq(name string, args ...string) *step {
	fmt.Fprintf(os.Stderr, "%s: planq %s\n", p.name, strings.Join(args, " "))
	return p.exec(name, p.code, planqBin, args...)
}

// exec runs bin in dir, its output saved in p.dir as NN-<name>.out and
// NN-<name>.err, NN counting p's commands.
func (p *project) exec(name, dir, bin string, args ...string) *step {
	name = fmt.Sprintf("%02d-%s", len(p.steps)+1, name)
	s := &step{name: name}
	p.steps = append(p.steps, s)
	cmd := exec.Command(bin, args...)
	cmd.Dir, cmd.Env = dir, env
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	s.stdout = stdout.Bytes()
	s.stderrAt = filepath.Join(p.dir, name+".err")
	check(os.WriteFile(filepath.Join(p.dir, name+".out"), stdout.Bytes(), 0o644))
	check(os.WriteFile(s.stderrAt, stderr.Bytes(), 0o644))
	var exit *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &exit):
		s.code = exit.ExitCode()
	default:
		s.code = -1
		stderr.WriteString(err.Error())
	}
	if s.code != 0 {
		s.lastErr = lastLine(stderr.String())
	}
	return s
}

// readArticles reads knowledge/<topic>/<slug>.md from global in p's state
// repository and judges each.
func readArticles(p *project, planqHome string) error {
	repo, err := stateRepo(p.name, planqHome)
	if err != nil {
		return err
	}
	cmd := exec.Command("git", "--git-dir", repo, "ls-tree", "-r", "-z", "--name-only", "global", "knowledge/")
	cmd.Env = env
	out, err := cmd.Output()
	if err != nil {
		return fmt.Errorf("git ls-tree global knowledge/ in %s: %w", repo, err)
	}
	var paths []string
	for _, path := range strings.Split(string(out), "\x00") {
		parts := strings.Split(path, "/")
		if len(parts) != 3 || !strings.HasSuffix(path, ".md") || strings.HasPrefix(parts[2], "_") || strings.ContainsAny(path, "\n") {
			continue
		}
		paths = append(paths, path)
	}
	var in bytes.Buffer
	for _, path := range paths {
		in.WriteString("global:" + path + "\n")
	}
	cmd = exec.Command("git", "--git-dir", repo, "cat-file", "--batch")
	cmd.Env, cmd.Stdin = env, &in
	out, err = cmd.Output()
	if err != nil {
		return fmt.Errorf("git cat-file --batch in %s: %w", repo, err)
	}
	r := bufio.NewReader(bytes.NewReader(out))
	for _, path := range paths {
		header, err := r.ReadString('\n')
		if err != nil {
			return fmt.Errorf("reading %s: %w", path, err)
		}
		f := strings.Fields(header)
		if len(f) != 3 {
			return fmt.Errorf("reading %s: %q", path, strings.TrimSpace(header))
		}
		size, err := strconv.Atoi(f[2])
		if err != nil {
			return fmt.Errorf("reading %s: %q", path, strings.TrimSpace(header))
		}
		body := make([]byte, size+1) // the content and its newline
		if _, err := io.ReadFull(r, body); err != nil {
			return fmt.Errorf("reading %s: %w", path, err)
		}
		p.articles++
		slug := strings.TrimSuffix(filepath.Base(path), ".md")
		only, repeats := judge(slug, string(body[:size]))
		if only {
			p.onlySlug = append(p.onlySlug, path)
		}
		if repeats {
			p.descRepeats = append(p.descRepeats, path)
		}
	}
	return nil
}

// stateRepo finds the project's state repository under PLANQ_HOME/state-repos.
func stateRepo(name, planqHome string) (string, error) {
	dir := filepath.Join(planqHome, "state-repos")
	entries, err := os.ReadDir(dir)
	if err != nil {
		return "", err
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
		if e.Name() == name+".git" || e.Name() == name {
			return filepath.Join(dir, e.Name()), nil
		}
	}
	return "", fmt.Errorf("no state repository of %s in %s (it holds %s)", name, dir, strings.Join(names, ", "))
}

var (
	citation   = regexp.MustCompile(`\([^()]*\bpq-[0-9a-f]+[^()]*\)`)
	recordID   = regexp.MustCompile(`\bpq-[0-9a-f]+\b`)
	linkTarget = regexp.MustCompile(`\]\([^)]*\)`)
	nonWord    = regexp.MustCompile(`[^\p{L}\p{N}]+`)
	// unsaid are the sections that say nothing a record teaches: links,
	// and Context's lines planq writes itself (the domain, the files).
	unsaid = map[string]bool{"sources": true, "related": true, "see also": true, "context": true}
)

// judge says whether an article says nothing but its slug and title, and
// whether its description only repeats its title or slug.
func judge(slug, text string) (onlySlug, descRepeats bool) {
	lines := strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n")
	var title, desc string
	if len(lines) > 0 && strings.TrimSpace(lines[0]) == "---" {
		for i := 1; i < len(lines); i++ {
			l := lines[i]
			if strings.TrimSpace(l) == "---" {
				lines = lines[i+1:]
				break
			}
			if v, ok := strings.CutPrefix(l, "title:"); ok {
				title = unquote(v)
			}
			if v, ok := strings.CutPrefix(l, "description:"); ok {
				desc = unquote(v)
			}
		}
	}
	var body strings.Builder
	skip := false
	for _, l := range lines {
		t := strings.TrimSpace(l)
		if strings.HasPrefix(t, "#") {
			skip = unsaid[strings.ToLower(strings.TrimSpace(strings.TrimLeft(t, "#")))]
			continue
		}
		if !skip {
			body.WriteString(l + "\n")
		}
	}
	s := citation.ReplaceAllString(body.String(), " ")
	s = recordID.ReplaceAllString(s, " ")
	s = linkTarget.ReplaceAllString(s, "] ")
	named := map[string]bool{}
	for _, w := range append(strings.Split(strings.ToLower(slug), "-"), words(title)...) {
		named[w] = true
	}
	onlySlug = true
	for _, w := range words(s) {
		if !named[w] {
			onlySlug = false
			break
		}
	}
	d := strings.Join(words(desc), " ")
	descRepeats = d != "" && (d == strings.Join(words(title), " ") || d == strings.Join(words(slug), " "))
	return onlySlug, descRepeats
}

func words(s string) []string {
	return strings.Fields(nonWord.ReplaceAllString(strings.ToLower(s), " "))
}

func unquote(v string) string {
	v = strings.TrimSpace(v)
	if s, err := strconv.Unquote(v); err == nil && strings.HasPrefix(v, `"`) {
		return s
	}
	if len(v) >= 2 && v[0] == '\'' && v[len(v)-1] == '\'' {
		return strings.ReplaceAll(v[1:len(v)-1], "''", "'")
	}
	return v
}

func report(projects []*project) int {
	status := 0
	tw := tabwriter.NewWriter(os.Stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "project\timported\tcreated\tarticles\tonly slug\tdesc = name\tdisputed\tdry-run disputed\tupdate exit\t")
	for _, p := range projects {
		disputed := "-"
		if p.disputedOK {
			disputed = strconv.Itoa(len(p.disputed))
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%d\t%d\t%s\t%s\t%s\t\n", p.name, p.imported, p.created, p.articles, len(p.onlySlug),
			len(p.descRepeats), disputed, p.dryDisputed, p.updateCode)
		if p.updateCode != "0" || len(p.onlySlug) > 0 {
			status = 1
		}
	}
	tw.Flush()

	for _, p := range projects {
		var failed []string
		for _, s := range p.steps {
			if s.code != 0 {
				failed = append(failed, fmt.Sprintf("  %s: exit %d: %s (%s)", s.name, s.code, s.lastErr, s.stderrAt))
			}
		}
		failed = append(failed, indent(p.problems)...)
		if len(failed) == 0 && len(p.onlySlug) == 0 && len(p.disputed) == 0 && len(p.dryDisputedPaths) == 0 {
			continue
		}
		fmt.Printf("\n%s (%s)\n", p.name, p.source)
		if len(failed) > 0 {
			fmt.Println(" failed:")
			for _, l := range failed {
				fmt.Println(l)
			}
		}
		if len(p.onlySlug) > 0 {
			fmt.Printf(" says only its slug (%d):\n", len(p.onlySlug))
			for i, path := range p.onlySlug {
				if i == 10 {
					fmt.Printf("  ... and %d more\n", len(p.onlySlug)-10)
					break
				}
				fmt.Println("  " + path)
			}
		}
		real := map[string]bool{}
		if len(p.disputed) > 0 {
			fmt.Printf(" disputed (%d):\n", len(p.disputed))
			for _, d := range p.disputed {
				real[d.Path] = true
				fmt.Printf("  %s  %s\n", d.Path, d.Title)
				for _, c := range d.Conflict {
					fmt.Println("    - " + c)
				}
			}
		}
		var dryOnly []string
		for _, path := range p.dryDisputedPaths {
			if !real[path] {
				dryOnly = append(dryOnly, path)
			}
		}
		sort.Strings(dryOnly)
		if len(dryOnly) > 0 {
			fmt.Printf(" disputed in the dry run only (%d):\n", len(dryOnly))
			for _, path := range dryOnly {
				fmt.Println("  " + path)
			}
		}
	}
	return status
}

func indent(ls []string) []string {
	out := make([]string, len(ls))
	for i, l := range ls {
		out[i] = "  " + l
	}
	return out
}

// projectName names a project after its source: name of .../owner+name/repo,
// else the source's base name; lowercased, any character but [a-z0-9_-]
// made '-', and the source's index added.
func projectName(src string, i int) string {
	src = filepath.Clean(src)
	base := filepath.Base(src)
	if base == "repo" || base == ".git" {
		base = filepath.Base(filepath.Dir(src))
		if _, after, ok := strings.Cut(base, "+"); ok {
			base = after
		}
	}
	base = strings.TrimSuffix(base, ".git")
	var b strings.Builder
	for _, r := range strings.ToLower(base) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '_' || r == '-' {
			b.WriteRune(r)
		} else {
			b.WriteByte('-')
		}
	}
	name := strings.TrimLeft(b.String(), "-_")
	if name == "" {
		name = "p"
	}
	return fmt.Sprintf("%s-%d", name, i)
}

func moduleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("no go.mod in this directory or above it")
		}
		dir = parent
	}
}

func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return strings.TrimSpace(lines[len(lines)-1])
}

func check(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, "kbreal:", err)
		os.Exit(2)
	}
}
