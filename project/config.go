package project

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"net/url"
	"path/filepath"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/bmatcuk/doublestar/v4"
	"go.yaml.in/yaml/v3"

	"github.com/planq-dev/planq/internal/atomicfile"
	"github.com/planq-dev/planq/internal/embed"
	"github.com/planq-dev/planq/internal/untrusted"
	"github.com/planq-dev/planq/planqerr"
)

// ConfigPath is where the tracked project configuration lives, relative to the
// root of the code checkout.
const ConfigPath = ".planq/config"

// AgentMount is where an agent's state worktree is mounted in a workspace.
const AgentMount = ".planq/agent"

// Config is the tracked .planq/config of a project.
type Config struct {
	// Project names the project and its state repository.
	Project string `yaml:"project"`
	// Remote is the team remote that state is pushed to and pulled from.
	Remote string `yaml:"remote,omitempty"`
	// Workspaces is where `planq create` makes code workspaces; relative paths
	// are relative to the code checkout. Empty means $PLANQ_HOME/workspaces/<project>.
	Workspaces string `yaml:"workspaces,omitempty"`
	// Hooks switches planq's hooks on and off.
	Hooks Hooks `yaml:"hooks"`
	// ShelfLife overrides how long unused learnings of a classification stay
	// in the current view before 'planq prune' archives them.
	ShelfLife ShelfLife `yaml:"shelf_life,omitempty"`
	// Curation chooses the instruction files raw notes are curated into.
	Curation Curation `yaml:"curation,omitempty"`
	// Search chooses the model search embeds text with.
	Search Search `yaml:"search,omitempty"`
	// Knowledge shapes the knowledge base on global (planq kb).
	Knowledge Knowledge `yaml:"knowledge,omitempty"`
	// Private keeps the project to itself: it is never searched from
	// another project (planq search --all-projects) and nothing of it is
	// promoted to the user layer.
	Private bool `yaml:"private,omitempty"`
}

// Knowledge is how the project's knowledge base is laid out.
type Knowledge struct {
	// Topics are the directories of knowledge/ that articles go in, in
	// the order the index lists them: lower-case letters, digits and
	// hyphens. None means planq's (architecture, decisions, ...).
	Topics []string `yaml:"topics,omitempty"`
	// ADRDirs are the directories of the project's architecture decision
	// records, from the repository's root, for 'planq kb bootstrap'. None
	// means those planq finds: the usual places, and any directory named
	// for ADRs or decisions that holds numbered Markdown files.
	ADRDirs []string `yaml:"adr_dirs,omitempty"`
}

// IsZero reports that nothing was configured (yaml's omitempty asks).
func (k Knowledge) IsZero() bool { return len(k.Topics) == 0 && len(k.ADRDirs) == 0 }

// check says what of knowledge: cannot be acted on, or "".
func (k Knowledge) check() string {
	seen := map[string]bool{}
	for _, t := range k.Topics {
		if !topicRE().MatchString(t) || len(t) > 80 {
			return fmt.Sprintf("knowledge: topics: %q is not a topic (lower-case letters, digits and single hyphens, at most 80 characters)", t)
		}
		if seen[t] {
			return fmt.Sprintf("knowledge: topics: %q is named twice", t)
		}
		seen[t] = true
	}
	for _, d := range k.ADRDirs {
		if problem := RepoPathProblem(d); problem != "" {
			return fmt.Sprintf("knowledge: adr_dirs: %q %s", d, problem)
		}
	}
	return ""
}

var topicRE = lazyRegexp(`^[a-z0-9]+(-[a-z0-9]+)*$`)

// Search is how the project's search embeds text, to find records by
// meaning as well as by their words.
type Search struct {
	// Model is "default" (the model inside planq; also when empty), "none"
	// (words alone), a model2vec model's directory (relative to the
	// repository's root, or absolute), or the hub name (owner/name) of a
	// model fetched with 'planq model fetch' into $PLANQ_HOME/models.
	Model string `yaml:"model,omitempty"`
	// Endpoint is an OpenAI-compatible embeddings endpoint to embed with
	// instead (a local Ollama, for instance).
	Endpoint *SearchEndpoint `yaml:"endpoint,omitempty"`
}

// SearchEndpoint is an OpenAI-compatible embeddings endpoint.
type SearchEndpoint struct {
	// URL is the API's base, its version path included (planq posts to
	// {url}/embeddings): http://localhost:11434/v1 for a local Ollama.
	URL EndpointURL `yaml:"url"`
	// Model is the model the endpoint is asked for.
	Model string `yaml:"model"`
	// KeyEnv names the environment variable that holds the endpoint's
	// bearer key: the key itself never goes in the tracked config.
	KeyEnv EnvName `yaml:"key_env,omitempty"`
	// Timeout bounds each call; zero means DefaultSearchTimeout.
	Timeout Timeout `yaml:"timeout,omitempty"`
}

// DefaultSearchTimeout bounds a call to a search endpoint unless its
// timeout says otherwise; MaxSearchTimeout is the longest one may say.
const (
	DefaultSearchTimeout = 2 * time.Second
	MaxSearchTimeout     = time.Minute
)

// ModelName is the model search: names, "default" when it names none.
func (s Search) ModelName() string {
	if m := strings.TrimSpace(s.Model); m != "" {
		return m
	}
	return "default"
}

// TimeoutOrDefault is the endpoint's time bound per call.
func (e SearchEndpoint) TimeoutOrDefault() time.Duration {
	if e.Timeout.Span > 0 {
		return e.Timeout.Span
	}
	return DefaultSearchTimeout
}

// check says what of search: cannot be acted on, or "".
func (s Search) check() string {
	switch {
	case s.Endpoint == nil:
		return ""
	case s.Endpoint.URL == "":
		return "search: endpoint: has no url"
	case strings.TrimSpace(s.Endpoint.Model) == "":
		return "search: endpoint: has no model"
	case s.ModelName() != "default" && s.ModelName() != "none":
		return fmt.Sprintf("search: names both the model %q and an endpoint", s.Model)
	}
	return ""
}

// EndpointURL is the base URL of an embeddings API: http or https, with a
// host, and neither a user, a query nor a fragment, where a key could hide.
type EndpointURL string

// UnmarshalYAML reads an endpoint's URL, naming the line of one planq refuses.
func (u *EndpointURL) UnmarshalYAML(n *yaml.Node) error {
	problem := "is not a URL"
	parsed, err := url.Parse(n.Value)
	if n.Kind == yaml.ScalarNode {
		problem = embed.URLProblem(parsed, err)
	}
	if problem == "" {
		*u = EndpointURL(n.Value)
		return nil
	}
	shown := "the url" // what would show a key, a user or a query is not repeated
	if err == nil && n.Kind == yaml.ScalarNode {
		shown = strconv.Quote((&url.URL{Scheme: parsed.Scheme, Host: parsed.Host, Path: parsed.Path, Opaque: parsed.Opaque}).String())
	}
	return &fieldError{problem: fmt.Sprintf("line %d: search: endpoint: url: %s %s", n.Line, shown, problem),
		hint: "give the API's base URL, its version path included, like http://localhost:11434/v1 for a local Ollama; a key goes in the environment variable key_env: names"}
}

// EnvName is the name of an environment variable.
type EnvName string

// UnmarshalYAML reads a variable's name, naming the line of one that is not.
func (e *EnvName) UnmarshalYAML(n *yaml.Node) error {
	if n.Kind != yaml.ScalarNode || !envNameRE().MatchString(n.Value) {
		return &fieldError{problem: fmt.Sprintf("line %d: search: endpoint: key_env: is not the name of an environment variable", n.Line),
			hint: "key_env: names the variable that holds the key, like OPENAI_API_KEY: never the key itself, which would be in git"}
	}
	*e = EnvName(n.Value)
	return nil
}

var envNameRE = lazyRegexp(`^[A-Za-z_][A-Za-z0-9_]{0,127}$`)

// Timeout is a time bound, written as a Go duration ("2s", "500ms").
type Timeout struct {
	Text string
	Span time.Duration
}

// IsZero reports that no time bound was set (yaml's omitempty asks).
func (t Timeout) IsZero() bool { return t.Text == "" }

// MarshalYAML writes the time bound as it was given.
func (t Timeout) MarshalYAML() (any, error) { return t.Text, nil }

// UnmarshalYAML reads a time bound above zero and at most
// MaxSearchTimeout, naming the line of one that is not.
func (t *Timeout) UnmarshalYAML(n *yaml.Node) error {
	d, err := time.ParseDuration(strings.TrimSpace(n.Value))
	if n.Kind != yaml.ScalarNode || err != nil || d <= 0 || d > MaxSearchTimeout {
		return &fieldError{problem: fmt.Sprintf("line %d: search: endpoint: timeout: %q is not a time bound above zero and at most %s", n.Line, n.Value, MaxSearchTimeout),
			hint: "write it as a Go duration, like 2s or 500ms"}
	}
	*t = Timeout{Text: n.Value, Span: d}
	return nil
}

// Curation is how a project's raw notes are curated.
type Curation struct {
	// InstructionFiles are the agents' instruction files, paths or globs
	// relative to the repository's root; none means DefaultInstructionFiles.
	InstructionFiles RepoPatterns `yaml:"instruction_files,omitempty"`
	// KeepDecided is how long applied and dismissed notes stay before
	// 'planq prune' archives them; zero means DefaultKeepDecided.
	KeepDecided LifeSpan `yaml:"keep_decided,omitempty"`
}

// DefaultKeepDecided is how long applied and dismissed notes stay.
const DefaultKeepDecided = 30 * 24 * time.Hour

// KeepDecided is how long the project keeps applied and dismissed notes;
// never means for good.
func (c Config) KeepDecided() LifeSpan {
	if !c.Curation.KeepDecided.IsZero() {
		return c.Curation.KeepDecided
	}
	return LifeSpan{Text: "30d", Span: DefaultKeepDecided}
}

// IsZero reports that nothing was configured (yaml's omitempty asks).
func (c Curation) IsZero() bool { return len(c.InstructionFiles) == 0 && c.KeepDecided.IsZero() }

// DefaultInstructionFiles are the instruction files of the coding agents
// planq knows, as each agent reads them: Claude Code, Codex and Gemini
// also read the files of those names in the directory they work in, so
// nested ones count wherever they sit.
var DefaultInstructionFiles = []string{"**/CLAUDE.md", "**/AGENTS.md", "**/GEMINI.md", ".cursorrules", ".cursor/rules/*.mdc",
	".github/copilot-instructions.md", "CONVENTIONS.md"}

// InstructionFiles are the project's instruction files (patterns).
func (c Config) InstructionFiles() []string {
	if len(c.Curation.InstructionFiles) > 0 {
		return c.Curation.InstructionFiles
	}
	return DefaultInstructionFiles
}

// RepoPatterns are paths or globs (doublestar's: ** is any number of
// directories) of files inside the code repository's work tree, read from
// .planq/config: an absolute path, one that leaves the work tree or names
// .git is an error naming its line.
// planq reads these files into an agent's packet and writes them: nothing
// outside the work tree, nor git's own files.
type RepoPatterns []string

// UnmarshalYAML reads a list of patterns, naming the line of each bad one.
func (r *RepoPatterns) UnmarshalYAML(n *yaml.Node) error {
	var list []string
	if err := n.Decode(&list); err != nil {
		return err
	}
	var problems []string
	for i, pat := range list {
		line := n.Line
		if i < len(n.Content) {
			line = n.Content[i].Line
		}
		if problem := patternProblem(pat); problem != "" {
			problems = append(problems, fmt.Sprintf("line %d: instruction_files: %q %s", line, pat, problem))
		}
	}
	if len(problems) > 0 {
		return &fieldError{problem: strings.Join(problems, "; "),
			hint: "name each instruction file by its path from the repository's root, like CLAUDE.md or .cursor/rules/*.mdc; planq reads and writes nothing outside the work tree, nor under .git"}
	}
	*r = list
	return nil
}

// fieldError is a field of .planq/config that reads as YAML but means
// nothing planq may act on, with what to do about it.
type fieldError struct{ problem, hint string }

func (e *fieldError) Error() string { return e.problem }

// patternProblem says why pat names no file inside the work tree, or "".
func patternProblem(pat string) string {
	if problem := RepoPathProblem(pat); problem != "" {
		return problem
	}
	if !doublestar.ValidatePattern(pat) {
		return "is not a glob (** is any number of directories, * and ? stay within one, [abc] and {a,b} choose)"
	}
	return "" // what a glob matches under .git is left out where it is read
}

// ShelfLife is the project's shelf life per classification; zero keeps
// planq's default (tactical 14 days, observational 30). Foundational
// learnings never expire.
type ShelfLife struct {
	Tactical      LifeSpan `yaml:"tactical,omitempty"`
	Observational LifeSpan `yaml:"observational,omitempty"`
}

// LifeSpan is a shelf life: days ("14d"), weeks ("2w"), a Go duration
// ("336h"), or "never".
type LifeSpan struct {
	Text string
	// Never says the learnings do not expire; otherwise Span is how long.
	Never bool
	Span  time.Duration
}

// IsZero reports that no shelf life was set (yaml's omitempty asks).
func (l LifeSpan) IsZero() bool { return l.Text == "" }

// MarshalYAML writes the shelf life as it was given.
func (l LifeSpan) MarshalYAML() (any, error) { return l.Text, nil }

// UnmarshalYAML reads a shelf life, naming the line of one that does not read.
func (l *LifeSpan) UnmarshalYAML(n *yaml.Node) error {
	parsed, err := ParseLifeSpan(n.Value)
	if n.Kind != yaml.ScalarNode || err != nil {
		return fmt.Errorf("line %d: %q is not a span of time (14d, 2w, 336h or never)", n.Line, n.Value)
	}
	*l = parsed
	return nil
}

// ParseLifeSpan reads "14d", "2w", "336h" or "never".
func ParseLifeSpan(s string) (LifeSpan, error) {
	s = strings.TrimSpace(s)
	if s == "never" {
		return LifeSpan{Text: s, Never: true}, nil
	}
	for suffix, unit := range map[string]time.Duration{"d": 24 * time.Hour, "w": 7 * 24 * time.Hour} {
		if n, ok := strings.CutSuffix(s, suffix); ok {
			// A span beyond what a Duration holds (292 years) would wrap
			// around to a negative one, and expire everything.
			if v, err := strconv.ParseInt(n, 10, 64); err == nil && v > 0 && v <= math.MaxInt64/int64(unit) {
				return LifeSpan{Text: s, Span: time.Duration(v) * unit}, nil
			}
			return LifeSpan{}, fmt.Errorf("%q is not a shelf life", s)
		}
	}
	d, err := time.ParseDuration(s)
	if err != nil || d <= 0 {
		return LifeSpan{}, fmt.Errorf("%q is not a shelf life", s)
	}
	return LifeSpan{Text: s, Span: d}, nil
}

// Hooks are the hook switches of a project.
type Hooks struct {
	SessionStart bool `yaml:"session_start"`
	PreCompact   bool `yaml:"pre_compact"`
	PostCommit   bool `yaml:"post_commit"`
	PostCheckout bool `yaml:"post_checkout"`
}

// DefaultConfig returns the configuration `planq init` writes for a project.
func DefaultConfig(name string) Config {
	return Config{Project: name, Hooks: Hooks{SessionStart: true, PreCompact: true}}
}

const configHeader = `# planq project configuration. Track this file in git.
# project:    names the state repository ($PLANQ_HOME/state-repos/<project>.git)
# remote:     optional team remote for 'planq state push' and 'planq state pull'
# workspaces: where 'planq create' puts code workspaces (default $PLANQ_HOME/workspaces/<project>)
# hooks:      which agent and git hooks planq installs
# shelf_life: optional; how long unused learnings stay current before 'planq prune'
#             archives them: tactical: 14d, observational: 30d (or 2w, 336h, never)
# curation:   optional; instruction_files: the agents' instruction files raw notes are
#             curated into (default CLAUDE.md, AGENTS.md, GEMINI.md, .cursorrules, ...)
# private:    optional; true keeps this project out of search across projects and
#             out of promotion to the user layer
`

// Marshal renders the configuration as the YAML file planq writes.
func (c Config) Marshal() ([]byte, error) {
	var buf bytes.Buffer
	buf.WriteString(configHeader)
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(c); err != nil {
		return nil, fmt.Errorf("failed to encode config: %w", err)
	}
	if err := enc.Close(); err != nil {
		return nil, fmt.Errorf("failed to encode config: %w", err)
	}
	return buf.Bytes(), nil
}

// ParseConfig decodes a .planq/config strictly: unknown keys, duplicate keys
// and wrong types are errors that name the line.
func ParseConfig(path string, data []byte) (Config, error) {
	if !utf8.Valid(data) {
		return Config{}, planqerr.New(planqerr.Corrupt, path, "is not UTF-8 text").
			WithHint("save it as UTF-8; it holds only keys like project: and remote:")
	}
	var c Config
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(&c); err != nil && !errors.Is(err, io.EOF) {
		var fe *fieldError
		if errors.As(err, &fe) {
			return Config{}, planqerr.New(planqerr.Corrupt, path, "%s", fe.problem).WithHint("%s", fe.hint)
		}
		return Config{}, planqerr.New(planqerr.Corrupt, path, "%s", yamlProblem(err)).
			WithHint("fix the file by hand; 'planq init' rewrites it only when it is missing")
	}
	if err := ValidateName("project", c.Project); err != nil {
		return Config{}, planqerr.New(planqerr.Corrupt, path, "project: %w", err)
	}
	if problem := c.Knowledge.check(); problem != "" {
		return Config{}, planqerr.New(planqerr.Corrupt, path, "%s", problem).
			WithHint("name each topic once, like architecture or release-notes")
	}
	if problem := c.Search.check(); problem != "" {
		return Config{}, planqerr.New(planqerr.Corrupt, path, "%s", problem).
			WithHint("search: takes model: (default, none, a directory, or a fetched model) or endpoint: {url, model}, not both")
	}
	return c, nil
}

// yamlProblem says what the YAML decoder found in planq's words, keeping
// the line it names.
func yamlProblem(err error) string {
	msg := err.Error()
	var te *yaml.TypeError
	if errors.As(err, &te) && len(te.Errors) > 0 {
		msg = te.Errors[0]
	}
	if m := unknownFieldRE().FindStringSubmatch(msg); m != nil {
		keys := yamlKeys(reflect.TypeOf(Config{}))
		switch m[3] {
		case "project.Hooks":
			keys = yamlKeys(reflect.TypeOf(Hooks{}))
		case "project.ShelfLife":
			keys = yamlKeys(reflect.TypeOf(ShelfLife{}))
		case "project.Curation":
			keys = yamlKeys(reflect.TypeOf(Curation{}))
		case "project.Search":
			keys = yamlKeys(reflect.TypeOf(Search{}))
		case "project.Knowledge":
			keys = yamlKeys(reflect.TypeOf(Knowledge{}))
		case "project.SearchEndpoint":
			keys = yamlKeys(reflect.TypeOf(SearchEndpoint{}))
		}
		return fmt.Sprintf("%sunknown key %q (known: %s)", m[1], m[2], strings.Join(keys, ", "))
	}
	if m := wrongTypeRE().FindStringSubmatch(msg); m != nil {
		return fmt.Sprintf("%swrong type: %s where %s belongs", m[1], yamlKinds()[m[2]], goKinds()[m[3]])
	}
	return strings.TrimPrefix(msg, "yaml: ")
}

var (
	// Built on first use: only a malformed config needs them.
	unknownFieldRE = lazyRegexp(`^(line \d+: )field (\S+) not found in type (\S+)`)
	wrongTypeRE    = lazyRegexp(`^(line \d+: )cannot unmarshal (!!\w+)(?: \S+)? into (\S+)`)
	yamlKinds      = sync.OnceValue(func() map[string]string {
		return map[string]string{"!!str": "text", "!!int": "a number", "!!float": "a number", "!!bool": "true or false", "!!seq": "a list", "!!map": "a mapping", "!!null": "nothing"}
	})
	goKinds = sync.OnceValue(func() map[string]string {
		return map[string]string{"string": "text", "bool": "true or false", "int": "a number", "project.Hooks": "a mapping of hook switches",
			"project.ShelfLife": "a mapping of classifications to shelf lives", "project.Search": "a mapping (model, endpoint)", "project.Knowledge": "a mapping (topics)", "[]string": "a list of text",
			"project.SearchEndpoint": "a mapping (url, model, key_env, timeout)"}
	})
)

func lazyRegexp(expr string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(expr) })
}

// yamlKeys lists the YAML keys of a struct, in order.
func yamlKeys(t reflect.Type) []string {
	var keys []string
	for i := range t.NumField() {
		if name, _, _ := strings.Cut(t.Field(i).Tag.Get("yaml"), ","); name != "" && name != "-" {
			keys = append(keys, name)
		}
	}
	return keys
}

// maxConfig bounds .planq/config: a few dozen lines of YAML.
const maxConfig = 1 << 20

// LoadConfig reads the configuration of the checkout rooted at root.
func LoadConfig(root string) (Config, error) {
	path := filepath.Join(root, ConfigPath)
	// Tracked, so anyone who can push to the code wrote it: a FIFO or a
	// link out of the checkout there must not stall or leak.
	data, err := untrusted.ReadFile(root, path, maxConfig)
	if untrusted.ReasonOf(err) != 0 {
		return Config{}, planqerr.New(planqerr.Corrupt, ConfigPath, "%s", untrusted.Why(err)).
			WithHint("make %s a regular file of the checkout again: git checkout -- %s", ConfigPath, ConfigPath)
	}
	if err != nil {
		return Config{}, fmt.Errorf("failed to read config: %w", err)
	}
	return ParseConfig(path, data)
}

// SaveConfig writes the configuration of the checkout rooted at root.
func SaveConfig(root string, c Config) error {
	data, err := c.Marshal()
	if err != nil {
		return err
	}
	path := filepath.Join(root, ConfigPath)
	if err := atomicfile.WriteFile(path, data, 0o644); err != nil {
		return fmt.Errorf("failed to write %s: %w", path, err)
	}
	return nil
}
