package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode"

	"github.com/spf13/cobra"

	"github.com/planq-dev/planq/internal/testkit/testgit"
)

// TestJSONShapesAreWhatCommandsPrint holds every documented --json shape to
// what the command prints on a project that has one of everything: the
// shape its help gives after "--json prints", and the one its README row
// gives after "JSON". Each object prints only keys its shape names, and
// each key the shape names (but one marked "?": present only when set) is
// printed at least once. Every command whose help documents a shape has a
// case here, so neither can drift from the output unseen.
func TestJSONShapesAreWhatCommandsPrint(t *testing.T) {
	f := newShapeFixture(t)
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		// cmd is the command's path; args follow it, then --json.
		cmd  string
		args []string
		// before readies the project for it.
		before func()
		// exit is the exit code it must end with.
		exit int
		// helpAfter picks the help's shape after this text (default "--json prints").
		helpAfter string
		// noReadme: the README row's JSON shape is another run's (validate --fix).
		noReadme bool
		// readmeRow is the README row's command when it is not cmd's first
		// row (context promote --to user).
		readmeRow string
	}{
		{cmd: "list"},
		{cmd: "context show"},
		{cmd: "log", args: []string{"--all"}},
		{cmd: "get", args: []string{f.ids["pattern"]}},
		{cmd: "get", args: []string{f.ids["failure"]}}, // a use prune shows
		{cmd: "get", args: []string{f.ids["superseded"]}},
		{cmd: "get", args: []string{f.ids["retracted"]}},
		{cmd: "show", args: []string{f.ids["superseded"], "--history"}},
		{cmd: "show", args: []string{f.ids["retracted"]}},
		{cmd: "search", args: []string{"tokens expire", "refresh tokens"}},
		{cmd: "search", args: []string{"tokens expire", "refresh tokens", "--all-projects"}, before: f.brokenStateRepo},
		{cmd: "projects"},
		{cmd: "query", args: []string{"--all"}},
		{cmd: "status"},
		{cmd: "notes"},
		{cmd: "curate"},
		{cmd: "proposals list"},
		{cmd: "proposals apply", args: []string{f.ids["pending"]}},
		{cmd: "plan show"},
		{cmd: "artifact list"},
		{cmd: "checkpoint list"},
		{cmd: "mcp tools"},
		{cmd: "state remote list"},
		{cmd: "import", args: []string{"mulch"}},
		{cmd: "dedupe", args: []string{"--dry-run"}},
		{cmd: "context promote", args: []string{"--all"}},
		{cmd: "context promote", args: []string{"--all"}, before: f.logEntry}, // nothing new: marked merged
		{cmd: "kb update"},                                                    // after promote: global has learnings and a decision
		{cmd: "context promote", args: []string{"--to", "user", f.ids["pattern"], "--dry-run"}, helpAfter: "With --to user, --json prints", readmeRow: "context promote --to user"},
		{cmd: "context promote", args: []string{"--to", "user", f.ids["pattern"]}, helpAfter: "With --to user, --json prints", readmeRow: "context promote --to user"},
		{cmd: "context promote", args: []string{"--to", "user", f.ids["pattern"]}, helpAfter: "With --to user, --json prints", readmeRow: "context promote --to user"}, // present
		{cmd: "user list"},
		{cmd: "adopt", args: []string{f.ids["user"]}},
		{cmd: "adopt", args: []string{f.ids["user"]}}, // present
		{cmd: "user push", before: f.userRemote},
		{cmd: "user pull"},
		{cmd: "kb list"},
		{cmd: "kb curate"},
		{cmd: "kb write", args: []string{"team-notes.md"}, before: f.kbArticle},
		{cmd: "kb edit", args: []string{"team-notes"}, before: f.kbEditor},
		{cmd: "kb delete", args: []string{"ci"}},
		{cmd: "kb show", args: []string{"token-lifetime"}},
		{cmd: "kb search", args: []string{"access tokens", "token lifetime"}},
		{cmd: "kb disputed"},
		{cmd: "kb resolve", args: []string{"token-lifetime", "--keep", f.ids["kept"]}},                                 // disputed since the promote
		{cmd: "kb bootstrap", args: []string{"--dry-run"}, before: func() { f.write("docs/adr/diagram.png", "\x00") }}, // a skip
		{cmd: "prune", args: []string{"--stale"}, before: f.goneAnchor},
		{cmd: "archive list"},
		{cmd: "restore", args: []string{f.ids["failure"]}},
		{cmd: "state gc", before: f.mergedAgent},
		{cmd: "state archives"},
		{cmd: "model fetch", args: []string{"owner/tiny"}, before: f.hub},
		{cmd: "model list"},
		{cmd: "validate", exit: 1, before: f.badRecords},
		{cmd: "validate", args: []string{"--fix"}, exit: 1, helpAfter: "with --fix,", noReadme: true},
		// After validate: what it left is a finding doctor cannot repair.
		{cmd: "doctor", exit: 1, before: f.leftLock},
	}
	documented := map[string]bool{}
	walkCommands(newRootCmd(&Env{Stdin: strings.NewReader("")}), nil, func(path string, cmd *cobra.Command) {
		if cmd.Flags().Lookup("json") != nil && helpShape(cmd.Long, "--json prints") != "" {
			documented[path] = true
		}
	})
	for _, c := range cases {
		delete(documented, c.cmd)
	}
	for path := range documented {
		t.Errorf("planq %s --help documents a --json shape that no case here checks: add one", path)
	}

	checked := map[string]*shape{} // by command, where and shape
	var order []string
	for _, c := range cases {
		name := strings.Join(append([]string{c.cmd}, c.args...), " ")
		if c.before != nil {
			c.before()
		}
		var shapes []string // "where: shape"
		cmd := findCommand(t, c.cmd)
		after := c.helpAfter
		if after == "" {
			after = "--json prints"
		}
		if s := helpShape(cmd.Long, after); s != "" {
			shapes = append(shapes, "help: "+oneLine(s))
		}
		if !c.noReadme {
			row := c.cmd
			if c.readmeRow != "" {
				row = c.readmeRow
			}
			if s := readmeShape(string(readme), row); s != "" {
				shapes = append(shapes, "README: "+oneLine(s))
			}
		}
		if len(shapes) == 0 {
			t.Errorf("planq %s: neither its help nor its README row documents a --json shape", name)
			continue
		}
		out := f.planq(c.exit, "", append(append(strings.Fields(c.cmd), c.args...), "--json")...)
		var v any
		if err := json.Unmarshal([]byte(out), &v); err != nil {
			t.Errorf("planq %s --json prints no JSON: %v\n%s", name, err, out)
			continue
		}
		for _, ws := range shapes {
			where, text, _ := strings.Cut(ws, ": ")
			key := c.cmd + " " + ws
			s := checked[key]
			if s == nil {
				if s, err = parseShape(text); err != nil {
					t.Errorf("planq %s: the %s shape %s does not parse: %v", name, where, text, err)
					continue
				}
				checked[key], order = s, append(order, key)
			}
			var problems []string
			s.walk(v, "", &problems)
			for _, problem := range problems {
				t.Errorf("planq %s --json: the %s shape %s: %s", name, where, text, problem)
			}
		}
	}
	// A key the shape names must be printed by some run of its command.
	for _, key := range order {
		var problems []string
		checked[key].unprinted("", &problems)
		for _, problem := range problems {
			t.Errorf("planq %s: %s", key, problem)
		}
	}
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// walkCommands calls fn for every command under root, by its path.
func walkCommands(root *cobra.Command, path []string, fn func(string, *cobra.Command)) {
	for _, sub := range root.Commands() {
		p := append(append([]string(nil), path...), sub.Name())
		fn(strings.Join(p, " "), sub)
		walkCommands(sub, p, fn)
	}
}

func findCommand(t *testing.T, path string) *cobra.Command {
	t.Helper()
	cmd, rest, err := newRootCmd(&Env{Stdin: strings.NewReader("")}).Find(strings.Fields(path))
	if err != nil || len(rest) > 0 {
		t.Fatalf("no command planq %s", path)
	}
	return cmd
}

// helpShape is the JSON shape that follows after in a help text: from the
// first { or [ after it to its closing bracket; "" when there is none.
func helpShape(long, after string) string {
	i := strings.Index(long, after)
	if i < 0 {
		return ""
	}
	rest := strings.TrimLeftFunc(long[i+len(after):], unicode.IsSpace)
	if rest == "" || rest[0] != '{' && rest[0] != '[' {
		return ""
	}
	return balanced(rest)
}

// readmeShapeRE finds the shape a README row gives after "JSON".
var readmeShapeRE = regexp.MustCompile("JSON[^`|]*`([\\[{][^`]*)`")

// readmeShape is the shape the row of command path gives (a line of the
// command tables whose first cell starts with `planq PATH`), or "".
func readmeShape(readme, path string) string {
	for _, line := range strings.Split(readme, "\n") {
		if !strings.HasPrefix(line, "| `planq "+path) {
			continue
		}
		next := strings.TrimPrefix(line, "| `planq "+path)
		if next == "" || !strings.ContainsAny(next[:1], " `") {
			continue
		}
		cells := strings.SplitN(line, " | ", 2)
		if len(cells) < 2 {
			continue
		}
		if m := readmeShapeRE.FindStringSubmatch(cells[1]); m != nil {
			return m[1]
		}
	}
	return ""
}

// balanced is the prefix of s up to the bracket that closes its first.
func balanced(s string) string {
	depth, inString := 0, false
	for i, r := range s {
		switch {
		case inString:
			inString = r != '"'
		case r == '"':
			inString = true
		case r == '{' || r == '[':
			depth++
		case r == '}' || r == ']':
			depth--
			if depth == 0 {
				return s[:i+1]
			}
		}
	}
	return s
}

// A shape is what the help and the README write after --json prints:
// {"a","b":SHAPE,"c"?} an object with these keys ("?": only when set;
// "<name>": any key; ... or …: more keys the text does not list), [SHAPE]
// an array of them, and a word, "..." or … where the text does not say
// (record: a record as show prints it).
type shape struct {
	object, array bool
	members       []member
	anyKey        *shape // the value of a "<name>" key
	open          bool   // keys the shape does not list are allowed
	elem          *shape
	// seen counts the objects checked, and each key they printed.
	objects int
	printed map[string]bool
}

type member struct {
	name     string
	optional bool
	value    *shape
}

var anyShape = &shape{}

func parseShape(text string) (*shape, error) {
	p := &shapeParser{s: text}
	s, err := p.shape()
	if err != nil {
		return nil, err
	}
	if p.skip(); p.i < len(p.s) {
		return nil, fmt.Errorf("%q after the shape", p.s[p.i:])
	}
	return s, nil
}

type shapeParser struct {
	s string
	i int
}

func (p *shapeParser) skip() {
	for p.i < len(p.s) && unicode.IsSpace(rune(p.s[p.i])) {
		p.i++
	}
}

// ellipsis consumes ... or … when it comes next.
func (p *shapeParser) ellipsis() bool {
	p.skip()
	for _, e := range []string{"...", "…"} {
		if strings.HasPrefix(p.s[p.i:], e) {
			p.i += len(e)
			return true
		}
	}
	return false
}

func (p *shapeParser) peek() byte {
	p.skip()
	if p.i == len(p.s) {
		return 0
	}
	return p.s[p.i]
}

func (p *shapeParser) str() (string, error) {
	end := strings.IndexByte(p.s[p.i+1:], '"')
	if end < 0 {
		return "", fmt.Errorf("an unclosed string at %d", p.i)
	}
	s := p.s[p.i+1 : p.i+1+end]
	p.i += end + 2
	return s, nil
}

func isWordByte(c byte) bool { return c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }

func (p *shapeParser) word() {
	for p.i < len(p.s) && isWordByte(p.s[p.i]) {
		p.i++
	}
}

func (p *shapeParser) shape() (*shape, error) {
	if p.ellipsis() {
		return anyShape, nil
	}
	switch c := p.peek(); {
	case c == '{':
		p.i++
		return p.object()
	case c == '[':
		p.i++
		s := &shape{array: true, elem: anyShape}
		if p.peek() != ']' {
			elem, err := p.shape()
			if err != nil {
				return nil, err
			}
			s.elem = elem
			p.ellipsis() // [record...]
		}
		if p.peek() != ']' {
			return nil, fmt.Errorf("no ] at %d", p.i)
		}
		p.i++
		return s, nil
	case c == '"':
		_, err := p.str() // a value: "..." or "<url>"
		return anyShape, err
	case isWordByte(c):
		p.word()
		return anyShape, nil
	default:
		return nil, fmt.Errorf("no shape at %d", p.i)
	}
}

func (p *shapeParser) object() (*shape, error) {
	s := &shape{object: true, printed: map[string]bool{}}
	for {
		if p.ellipsis() {
			s.open = true
		} else {
			switch c := p.peek(); {
			case c == '}':
			case c == '"':
				name, err := p.str()
				if err != nil {
					return nil, err
				}
				m := member{name: name, value: anyShape}
				if p.peek() == '?' {
					p.i++
					m.optional = true
				}
				if p.peek() == ':' {
					p.i++
					if m.value, err = p.shape(); err != nil {
						return nil, err
					}
				}
				if strings.HasPrefix(name, "<") && strings.HasSuffix(name, ">") {
					s.anyKey = m.value
				} else {
					s.members = append(s.members, m)
				}
			case isWordByte(c):
				p.word() // {record}: described elsewhere
				s.open, s.anyKey = true, anyShape
			default:
				return nil, fmt.Errorf("no key at %d", p.i)
			}
		}
		switch p.peek() {
		case ',':
			p.i++
		case '}':
			p.i++
			return s, nil
		default:
			return nil, fmt.Errorf("no , or } at %d", p.i)
		}
	}
}

// check returns how v differs from the shape.
func (s *shape) check(v any) []string {
	var problems []string
	s.walk(v, "", &problems)
	s.unprinted("", &problems)
	return problems
}

func (s *shape) walk(v any, at string, problems *[]string) {
	switch {
	case s.object:
		o, ok := v.(map[string]any)
		if !ok {
			*problems = append(*problems, fmt.Sprintf("%s is %s, not an object", orTop(at), describe(v)))
			return
		}
		s.objects++
		for _, k := range slices.Sorted(func(yield func(string) bool) {
			for k := range o {
				if !yield(k) {
					return
				}
			}
		}) {
			i := slices.IndexFunc(s.members, func(m member) bool { return m.name == k })
			switch {
			case i >= 0:
				s.printed[k] = true
				s.members[i].value.walk(o[k], at+"."+k, problems)
			case s.anyKey != nil:
				s.anyKey.walk(o[k], at+"."+k, problems)
			case !s.open:
				*problems = append(*problems, fmt.Sprintf("%s prints %q, which the shape does not name", orTop(at), k))
			}
		}
	case s.array:
		a, ok := v.([]any)
		if !ok {
			*problems = append(*problems, fmt.Sprintf("%s is %s, not an array", orTop(at), describe(v)))
			return
		}
		for _, e := range a {
			s.elem.walk(e, at+"[]", problems)
		}
	}
}

// unprinted reports the keys named without "?" that no object printed.
func (s *shape) unprinted(at string, problems *[]string) {
	switch {
	case s.object:
		if len(s.members) > 0 && s.objects == 0 {
			*problems = append(*problems, fmt.Sprintf("no run printed an object at %s to check", orTop(at)))
			return
		}
		for _, m := range s.members {
			if !m.optional && !s.printed[m.name] {
				*problems = append(*problems, fmt.Sprintf("%s never prints %q (mark it \"?\" if it is there only when set)", orTop(at), m.name))
			}
			m.value.unprinted(at+"."+m.name, problems)
		}
		if s.anyKey != nil {
			s.anyKey.unprinted(at+".<key>", problems)
		}
	case s.array:
		s.elem.unprinted(at+"[]", problems)
	}
}

func orTop(at string) string {
	if at == "" {
		return "the top"
	}
	return strings.TrimPrefix(at, ".")
}

func describe(v any) string {
	if v == nil {
		return "null"
	}
	b, _ := json.Marshal(v)
	return fmt.Sprintf("%.40s", b)
}

func TestShapeParser(t *testing.T) {
	for _, c := range []struct {
		shape, json string
		problems    int
	}{
		{`[{"a","b"}]`, `[{"a":1,"b":2}]`, 0},
		{`[{"a","b"}]`, `[{"a":1}]`, 1},
		{`[{"a","b"?}]`, `[{"a":1}]`, 0},
		{`[{"a"}]`, `[{"a":1,"c":2}]`, 1},
		{`[{"a"}]`, `[]`, 1},
		{`[{"a"}]`, `null`, 2},
		{`{"a":{"b"},"c":[record],"d":record}`, `{"a":{"b":1},"c":[{"x":1}],"d":{"y":2}}`, 0},
		{`{"a":{"b"},"c":[record...]}`, `{"a":{"b":1,"z":1},"c":[]}`, 1},
		{`{"<name>": "<url>"}`, `{"origin":"x","team":"y"}`, 0},
		{`{"a","k":{…},"l":[…]}`, `{"a":1,"k":{"q":1},"l":[1]}`, 0},
		{`{"a",...}`, `{"a":1,"b":2}`, 0},
		{`[{record}]`, `[{"x":1}]`, 0},
		{`{"plan": "..."}`, `{"plan":"x"}`, 0},
	} {
		s, err := parseShape(c.shape)
		if err != nil {
			t.Errorf("%s: %v", c.shape, err)
			continue
		}
		var v any
		if err := json.Unmarshal([]byte(c.json), &v); err != nil {
			t.Fatal(err)
		}
		if got := s.check(v); len(got) != c.problems {
			t.Errorf("%s against %s: %d problems, want %d: %q", c.shape, c.json, len(got), c.problems, got)
		}
	}
	for _, bad := range []string{`{"a"`, `[{"a"}`, `{"a" "b"}`, `{"a"}x`, `{1}`} {
		if _, err := parseShape(bad); err == nil {
			t.Errorf("%s parses", bad)
		}
	}
}

// shapeFixture is a project that has one of everything a listing shows.
type shapeFixture struct {
	t    *testing.T
	dir  string // the code checkout, agent auth mounted
	home string
	ids  map[string]string
}

func newShapeFixture(t *testing.T) *shapeFixture {
	t.Helper()
	home := testgit.Isolate(t)
	t.Setenv("TZ", "UTC")
	dir := filepath.Join(t.TempDir(), "app")
	f := &shapeFixture{t: t, dir: dir, home: home, ids: map[string]string{}}
	f.write("internal/auth/jwt.go", "package auth\n")
	f.write("internal/ci/run.go", "package ci\n")
	f.write("CLAUDE.md", "# Rules\n")
	f.write("AGENTS.md", "# Agents\n")
	testgit.Run(t, dir, "init", "-q")
	testgit.Run(t, dir, "add", "-A")
	testgit.Run(t, dir, "commit", "-q", "-m", "init")
	team := filepath.Join(t.TempDir(), "team.git")
	testgit.Run(t, filepath.Dir(team), "init", "-q", "--bare", team)

	f.planq(0, "", "init", "--project", "demo")
	f.planq(0, "", "create", "auth", "--here")
	f.planq(0, "", "state", "remote", "add", "origin", team)
	f.ids["pattern"] = f.id("learn", "Tokens expire after 15 minutes; refresh on 401", "--type", "pattern", "--domain", "auth", "--file", "internal/auth/jwt.go:1-1", "--classification", "foundational")
	f.id("learn", "Tokens expire after 15 minutes; refresh on 401.", "--type", "pattern", "--domain", "auth")
	f.ids["superseded"] = f.id("learn", "Sessions last an hour", "--type", "convention", "--domain", "auth")
	f.id("learn", "Sessions last an hour, renewed on use", "--type", "convention", "--domain", "auth", "--supersedes", f.ids["superseded"])
	f.ids["retracted"] = f.id("learn", "Tokens never expire", "--type", "convention", "--domain", "auth")
	f.id("retract", f.ids["retracted"], "--reason", "wrong: they expire")
	f.ids["failure"] = f.id("learn", "go test hangs without -p 1", "--type", "failure", "--domain", "ci", "--resolution", "set GOFLAGS=-p=1", "--file", "internal/ci/run.go")
	f.id("decide", "Use RS256", "--over", "HS256", "--because", "public-key verification")
	f.ids["user"] = f.id("learn", "Prefers table-driven tests", "--type", "convention", "--domain", "preferences", "--scope", "user")
	// Two learnings of one subject that say different things: once promoted,
	// their article is disputed (kb resolve).
	f.ids["kept"] = f.id("learn", "Access tokens live 15 minutes", "--type", "convention", "--domain", "auth", "--subject", "token lifetime")
	f.id("learn", "Access tokens live an hour", "--type", "convention", "--domain", "auth", "--subject", "token lifetime")
	f.id("log", "add", "Token refresh on 401")
	f.id("handoff", "Finish the refresh tests")
	f.planq(0, "", "context", "set", "Token refresh")
	f.planq(0, "", "branch", "append", "Why: tokens expire")
	f.planq(0, "", "checkpoint", "before-refactor", "-m", "tests green")
	f.write("report.txt", "benchmark\n")
	f.planq(0, "", "artifact", "add", filepath.Join(dir, "report.txt"))
	f.planq(0, "", "plan", "set", "Ship token refresh")
	vet := f.id("note", "run go vet before commit", "--agent-kind", "claude")
	race := f.id("note", "the overlay tests need --race", "--type", "codebase")
	lint := f.id("note", "run the linter with the repository's config")
	f.id("note", "the fixtures are generated by scripts/fixtures.sh", "--agent-kind", "codex")
	// A proposal whose file changed since, and one dismissed.
	f.propose(fmt.Sprintf(`{"proposed_files":{"CLAUDE.md":"# Rules\n\n- run go vet before commit\n"},"diff_summary":"go vet","entries_used":[%q],"entries_discarded":{%q:"one test's concern"}}`, vet, race))
	f.write("CLAUDE.md", "# Rules\n\nBe brief.\n")
	testgit.Run(t, dir, "commit", "-q", "-am", "rules")
	dismissed := f.propose(fmt.Sprintf(`{"proposed_files":{"AGENTS.md":"# Agents\n\n- lint with the repository's config\n"},"diff_summary":"lint","entries_used":[%q],"entries_discarded":{}}`, lint))
	f.planq(0, "", "proposals", "dismiss", dismissed)
	pending := f.id("note", "keep commits small")
	f.ids["pending"] = f.propose(fmt.Sprintf(`{"proposed_files":{"AGENTS.md":"# Agents\n\n- keep commits small\n"},"diff_summary":"small commits","entries_used":[%q],"entries_discarded":{}}`, pending))
	f.write(".mulch/mulch.config.yaml", "version: '1'\ndomains:\n  ci: {}\n  style: {}\n")
	// Two records that supersede each other: imported without the link that
	// would close the ring (unlinked).
	f.write(".mulch/expertise/style.jsonl", `{"id":"mx-0000aa","type":"convention","content":"use tabs","classification":"foundational","recorded_at":"2026-01-01T00:00:00Z","supersedes":["mx-0000bb"]}`+"\n"+
		`{"id":"mx-0000bb","type":"convention","content":"use spaces","classification":"foundational","recorded_at":"2026-01-02T00:00:00Z","supersedes":["mx-0000aa"]}`+"\n")
	f.write(".mulch/expertise/ci.jsonl", `{"type":"guide","classification":"tactical","recorded_at":"2026-11-25T00:56:50.145Z","evidence":{"commit":"f50684e279e4bd5a1b14096bf04286fb1f56110a"},"name":"release checklist","description":"Tag, push the tag, then run ci/run.sh release","id":"mx-73eee9"}`+"\n"+
		`{"type":"guide","name":"a line cut short`+"\n") // refused, and the rest imported
	return f
}

func (f *shapeFixture) write(path, content string) {
	f.t.Helper()
	full := filepath.Join(f.dir, filepath.FromSlash(path))
	if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
		f.t.Fatal(err)
	}
	if err := os.WriteFile(full, []byte(content), 0o644); err != nil {
		f.t.Fatal(err)
	}
}

// planq runs planq in the checkout, in process, and returns its stdout; the
// test fails unless it exits with code.
func (f *shapeFixture) planq(code int, stdin string, args ...string) string {
	f.t.Helper()
	var stdout, stderr bytes.Buffer
	got := Run(context.Background(), append([]string{"-C", f.dir}, args...), strings.NewReader(stdin), &stdout, &stderr)
	if got != code {
		f.t.Fatalf("planq %s: exit %d, want %d\n%s%s", strings.Join(args, " "), got, code, stdout.String(), stderr.String())
	}
	return stdout.String()
}

// id runs a command that writes a record and returns the record's ID.
func (f *shapeFixture) id(args ...string) string {
	f.t.Helper()
	return strings.TrimSpace(f.planq(0, "", args...))
}

// propose keeps the proposal given as JSON and returns its ID.
func (f *shapeFixture) propose(proposal string) string {
	f.t.Helper()
	return strings.TrimSpace(f.planq(0, proposal, "propose"))
}

// kbArticle is an agent's article, team-notes.md, in the checkout.
func (f *shapeFixture) kbArticle() {
	f.write("team-notes.md", "---\ntype: article\ntitle: Team notes\ndescription: How the team works.\ntopic: project\n"+
		"created: 2026-01-01T00:00:00Z\nupdated: 2026-01-01T00:00:00Z\ntimestamp: 2026-01-01T00:00:00Z\n"+
		"sources: [\"issue:#29\"]\nconfidence: low\nstatus: current\ncurated_by: mixed\n---\n\nWe review every change.\n")
}

// kbEditor is an $EDITOR that retitles the article it opens.
func (f *shapeFixture) kbEditor() {
	f.t.Setenv("VISUAL", "")
	f.t.Setenv("EDITOR", "sed -i 's/^title: .*/title: Notes/'")
}

// logEntry is a commit on the agent's branch that promote does not carry.
// userRemote gives the user layer a remote to push to.
func (f *shapeFixture) userRemote() {
	remote := filepath.Join(f.t.TempDir(), "user.git")
	testgit.Run(f.t, filepath.Dir(remote), "init", "-q", "--bare", remote)
	f.planq(0, "", "user", "remote", remote)
}

func (f *shapeFixture) logEntry() { f.id("log", "add", "Wrote the refresh tests") }

// goneAnchor removes the one file the failure cites, so prune --stale
// archives it (once promoted).
func (f *shapeFixture) goneAnchor() {
	testgit.Run(f.t, f.dir, "rm", "-q", "internal/ci/run.go")
	testgit.Run(f.t, f.dir, "commit", "-q", "-m", "drop ci")
}

// mergedAgent is an agent whose work global holds and whose worktree is
// gone: what state gc collects.
func (f *shapeFixture) mergedAgent() {
	f.planq(0, "", "create", "ops")
	f.planq(0, "", "learn", "Deploys run from main only", "--type", "convention", "--domain", "deploy", "--agent", "ops")
	f.planq(0, "", "context", "promote", "--agent", "ops", "--all")
	f.planq(0, "", "remove", "ops")
}

// leftLock is a git lock file a crashed process left in the state repository.
func (f *shapeFixture) leftLock() {
	lock := filepath.Join(f.home, ".planq", "state-repos", "demo.git", "refs", "heads", "agent-gone.lock")
	if err := os.WriteFile(lock, nil, 0o644); err != nil {
		f.t.Fatal(err)
	}
	old := time.Now().Add(-10 * time.Minute)
	if err := os.Chtimes(lock, old, old); err != nil {
		f.t.Fatal(err)
	}
}

// badRecords commits, by hand, one record validate --fix can repair and
// one it leaves for a person.
func (f *shapeFixture) badRecords() {
	agentDir := filepath.Join(f.dir, ".planq", "agent")
	for name, content := range map[string]string{
		"pq-00000000a1.md": "---\nid: pq-00000000a1\nkind: Learning\ntype: pattern\ntimestamp: 2026-11-01T10:00:00Z\nagent: auth\ndomain: auth\nclassification: tactical\n---\nWrong case\n",
		"pq-00000000a2.md": "---\nid: pq-00000000a2\nkind: learning\ntype: pattern\ntimestamp: 2026-11-01T10:00:00Z\nagent: auth\ndomain: ci\nclassification: tactical\n---\nMisplaced\n",
		"pq-00000000a3.md": "---\nid: pq-00000000a3\nkind: learning\ntype: pattern\ntype: convention\ntimestamp: 2026-11-01T10:00:00Z\nagent: auth\ndomain: auth\nclassification: tactical\n---\nTwice\n",
	} {
		if err := os.WriteFile(filepath.Join(agentDir, "learnings", "auth", name), []byte(content), 0o644); err != nil {
			f.t.Fatal(err)
		}
	}
	testgit.Run(f.t, agentDir, "add", "-A")
	testgit.Run(f.t, agentDir, "commit", "-q", "-m", "by hand")
}

// brokenStateRepo leaves a state repository beside the project that does
// not open: a search across projects skips it, planq projects lists its
// problem.
func (f *shapeFixture) brokenStateRepo() {
	repo := filepath.Join(f.home, ".planq", "state-repos", "broken.git")
	if err := os.MkdirAll(repo, 0o755); err != nil {
		f.t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(repo, "planq-project.json"), []byte(`{"code_repo":"/nowhere"}`+"\n"), 0o644); err != nil {
		f.t.Fatal(err)
	}
}
