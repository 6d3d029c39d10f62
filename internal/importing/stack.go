package importing

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/pelletier/go-toml/v2"

	"github.com/planq-dev/planq/internal/untrusted"
)

// What a project is made with (its languages, frameworks and tools) is
// read from the few files at the top of its checkout that say so: go.mod,
// package.json, Cargo.toml, pyproject.toml, a Dockerfile... One listing of
// the directory, then only the manifests it holds, each of at most
// maxManifest: a session start pays well under a millisecond for it. The
// names are the words the user layer's records say them by (go, react,
// django, docker, github-actions); a dependency is named only when it is
// well known (the tables below), so that a project's own module paths
// never become search words.

// maxManifest bounds a manifest: a go.mod or a package.json is a few KiB;
// a larger one is not read. A manifest is read only when it is a regular
// file inside the checkout (internal/untrusted): a go.mod that is a FIFO
// would block every session start, one linked out of the checkout is
// another project's.
const maxManifest = 256 << 10

// maxStack bounds the names Stack returns: the search that uses them ranks
// by all of them at once.
const maxStack = 24

// Stack lists what the project checked out at dir is made with, languages
// first, then frameworks and libraries, then tools, each once. A directory
// that cannot be read, or a manifest that does not parse, says less: Stack
// never fails.
func Stack(dir string) []string {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var s stack
	has := map[string]bool{}
	for _, e := range entries {
		has[e.Name()] = true
		if !e.IsDir() {
			s.fileTool(strings.ToLower(e.Name()))
		}
	}
	read := func(name string) []byte {
		if !has[name] {
			return nil
		}
		data, err := untrusted.ReadFile(dir, filepath.Join(dir, name), maxManifest)
		if err != nil {
			return nil
		}
		return data
	}
	for _, m := range manifests {
		if !m.present(has) {
			continue
		}
		s.lang(m.langs...)
		s.tool(m.tools...)
		for _, d := range m.deps {
			s.known(d.table(), d.parse(read(d.file)))
		}
		s.lockTools(has, m.locks...)
	}
	if fi, err := os.Stat(filepath.Join(dir, ".github", "workflows")); err == nil && fi.IsDir() {
		s.tool("github-actions")
	}
	return s.names()
}

// fileTools names what a file at the top of a checkout says by its name
// alone (lower-cased); the first row that matches wins.
var fileTools = []fileName{
	{exact: []string{"dockerfile"}, prefix: []string{"dockerfile."}, suffix: []string{".dockerfile"}, names: []string{"docker"}},
	{exact: []string{"docker-compose.yml", "docker-compose.yaml", "compose.yml", "compose.yaml"}, names: []string{"docker", "docker-compose"}},
	{exact: []string{"makefile", "gnumakefile"}, names: []string{"makefile"}},
	{exact: []string{"taskfile.yml", "taskfile.yaml"}, names: []string{"taskfile"}},
	{exact: []string{"justfile", ".justfile"}, names: []string{"justfile"}},
	{exact: []string{".gitlab-ci.yml"}, names: []string{"gitlab-ci"}},
	{suffix: []string{".csproj", ".sln"}, lang: true, names: []string{"csharp", "dotnet"}},
	{suffix: []string{".tf"}, names: []string{"terraform"}},
}

type fileName struct {
	exact, prefix, suffix []string
	lang                  bool
	names                 []string
}

func (f fileName) matches(name string) bool {
	return slices.Contains(f.exact, name) ||
		slices.ContainsFunc(f.prefix, func(p string) bool { return strings.HasPrefix(name, p) }) ||
		slices.ContainsFunc(f.suffix, func(p string) bool { return strings.HasSuffix(name, p) })
}

func (s *stack) fileTool(name string) {
	for _, f := range fileTools {
		if !f.matches(name) {
			continue
		}
		if f.lang {
			s.lang(f.names...)
		} else {
			s.tool(f.names...)
		}
		return
	}
}

// manifest is what one kind of project file says: its languages and tools
// when any of files is at the top of the checkout (and none of unless),
// the well-known dependencies deps list, the tools of its lock files
// (pairs of lock file and tool).
type manifest struct {
	files, unless []string
	langs, tools  []string
	deps          []depFile
	locks         []string
}

type depFile struct {
	file  string
	table func() map[string]string
	parse func([]byte) []string
}

func (m manifest) present(has map[string]bool) bool {
	isIn := func(name string) bool { return has[name] }
	return slices.ContainsFunc(m.files, isIn) && !slices.ContainsFunc(m.unless, isIn)
}

var gradleKts = []string{"build.gradle.kts", "settings.gradle.kts"}

var manifests = []manifest{
	{files: []string{"go.mod"}, langs: []string{"go"}, deps: []depFile{{"go.mod", goModules, GoModRequires}}},
	{files: []string{"package.json"}, langs: []string{"node"}, deps: []depFile{{"package.json", npmPackages, PackageJSONDependencies}},
		locks: []string{"pnpm-lock.yaml", "pnpm", "yarn.lock", "yarn", "bun.lockb", "bun", "bun.lock", "bun"}},
	{files: []string{"tsconfig.json"}, langs: []string{"typescript"}},
	{files: []string{"deno.json", "deno.jsonc"}, langs: []string{"deno", "typescript"}},
	{files: []string{"Cargo.toml"}, langs: []string{"rust"}, tools: []string{"cargo"}, deps: []depFile{{"Cargo.toml", crates, CargoDependencies}}},
	{files: []string{"pyproject.toml", "requirements.txt", "setup.py", "setup.cfg", "Pipfile"}, langs: []string{"python"},
		deps: []depFile{
			{"pyproject.toml", pythonPackages, PyprojectDependencies},
			{"requirements.txt", pythonPackages, RequirementsNames},
			{"requirements-dev.txt", pythonPackages, RequirementsNames},
		},
		locks: []string{"poetry.lock", "poetry", "uv.lock", "uv"}},
	{files: []string{"Gemfile"}, langs: []string{"ruby"}, deps: []depFile{{"Gemfile", gems, GemfileGems}}},
	{files: []string{"composer.json"}, langs: []string{"php"}, deps: []depFile{{"composer.json", composerPackages, ComposerRequires}}},
	{files: []string{"pom.xml"}, langs: []string{"java"}, tools: []string{"maven"}},
	{files: gradleKts, langs: []string{"kotlin"}, tools: []string{"gradle"}},
	{files: []string{"build.gradle", "settings.gradle"}, unless: gradleKts, langs: []string{"java"}, tools: []string{"gradle"}},
	{files: []string{"mix.exs"}, langs: []string{"elixir"}},
	{files: []string{"pubspec.yaml"}, langs: []string{"dart", "flutter"}},
	{files: []string{"Package.swift"}, langs: []string{"swift"}},
	{files: []string{"CMakeLists.txt"}, langs: []string{"cpp"}, tools: []string{"cmake"}},
	{files: []string{"flake.nix", "default.nix", "shell.nix"}, tools: []string{"nix"}},
}

// stack gathers names by rank: languages, then libraries, then tools.
type stack struct{ langs, libs, tools []string }

func (s *stack) lang(names ...string) { s.langs = append(s.langs, names...) }
func (s *stack) tool(names ...string) { s.tools = append(s.tools, names...) }

// lockTools names the tool of each lock file the checkout has, given as
// pairs of lock file and tool, in their order (so a stack reads the same
// on every run).
func (s *stack) lockTools(has map[string]bool, pairs ...string) {
	for i := 0; i+1 < len(pairs); i += 2 {
		if has[pairs[i]] {
			s.tool(pairs[i+1])
		}
	}
}

// known adds the names table gives the dependencies deps, in the order
// deps lists them.
func (s *stack) known(table map[string]string, deps []string) {
	for _, d := range deps {
		if name, ok := lookup(table, d); ok {
			s.libs = append(s.libs, name)
		}
	}
}

func (s *stack) names() []string {
	var out []string
	for _, n := range slices.Concat(s.langs, s.libs, s.tools) {
		if !slices.Contains(out, n) {
			out = append(out, n)
		}
	}
	return out[:min(len(out), maxStack)]
}

// lookup is the name table gives dep: its entry, or that of the longest
// path it is under (a module's major version or package, one package of a
// family such as @angular/core).
func lookup(table map[string]string, dep string) (string, bool) {
	dep = strings.ToLower(dep)
	for {
		if name, ok := table[dep]; ok {
			return name, true
		}
		i := strings.LastIndexByte(dep, '/')
		if i <= 0 {
			return "", false
		}
		dep = dep[:i]
	}
}

// GoModRequires are the modules a go.mod requires directly: its require
// lines and blocks, less those marked // indirect.
func GoModRequires(data []byte) []string {
	var mods []string
	block := false
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, maxManifest)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if strings.Contains(line, "// indirect") {
			continue
		}
		if c := strings.Index(line, "//"); c >= 0 {
			line = strings.TrimSpace(line[:c])
		}
		switch {
		case block && line == ")":
			block = false
			continue
		case line == "require (":
			block = true
			continue
		case !block:
			rest, ok := strings.CutPrefix(line, "require ")
			if !ok {
				continue
			}
			line = strings.TrimSpace(rest)
		}
		if f := strings.Fields(line); len(f) == 2 {
			if m := strings.Trim(f[0], `"`); m != "" {
				mods = append(mods, m)
			}
		}
	}
	return mods
}

// PackageJSONDependencies are the packages a package.json depends on, at
// run time, for development or as a peer, sorted.
func PackageJSONDependencies(data []byte) []string {
	var pkg struct {
		Dependencies    map[string]any `json:"dependencies"`
		DevDependencies map[string]any `json:"devDependencies"`
		Peer            map[string]any `json:"peerDependencies"`
	}
	if json.Unmarshal(data, &pkg) != nil {
		return nil
	}
	return sortedKeys(pkg.Dependencies, pkg.DevDependencies, pkg.Peer)
}

// ComposerRequires are the packages a composer.json requires, sorted.
func ComposerRequires(data []byte) []string {
	var pkg struct {
		Require    map[string]any `json:"require"`
		RequireDev map[string]any `json:"require-dev"`
	}
	if json.Unmarshal(data, &pkg) != nil {
		return nil
	}
	return sortedKeys(pkg.Require, pkg.RequireDev)
}

// CargoDependencies are the crates a Cargo.toml depends on (its
// dependencies, dev- and build-dependencies, and a workspace's), sorted.
func CargoDependencies(data []byte) []string {
	var c struct {
		Dependencies      map[string]any `toml:"dependencies"`
		DevDependencies   map[string]any `toml:"dev-dependencies"`
		BuildDependencies map[string]any `toml:"build-dependencies"`
		Workspace         struct {
			Dependencies map[string]any `toml:"dependencies"`
		} `toml:"workspace"`
	}
	if toml.Unmarshal(data, &c) != nil {
		return nil
	}
	return sortedKeys(c.Dependencies, c.DevDependencies, c.BuildDependencies, c.Workspace.Dependencies)
}

// PyprojectDependencies are the packages a pyproject.toml names: PEP 621's
// dependencies and optional dependencies, its dependency groups, and
// Poetry's tables, each by its name alone, sorted.
func PyprojectDependencies(data []byte) []string {
	var p struct {
		Project struct {
			Dependencies []string            `toml:"dependencies"`
			Optional     map[string][]string `toml:"optional-dependencies"`
		} `toml:"project"`
		Groups map[string][]any `toml:"dependency-groups"`
		Tool   struct {
			Poetry struct {
				Dependencies    map[string]any `toml:"dependencies"`
				DevDependencies map[string]any `toml:"dev-dependencies"`
				Group           map[string]struct {
					Dependencies map[string]any `toml:"dependencies"`
				} `toml:"group"`
			} `toml:"poetry"`
		} `toml:"tool"`
	}
	if toml.Unmarshal(data, &p) != nil {
		return nil
	}
	reqs := slices.Clone(p.Project.Dependencies)
	for _, group := range p.Project.Optional {
		reqs = append(reqs, group...)
	}
	for _, group := range p.Groups {
		for _, r := range group {
			if s, ok := r.(string); ok { // a table includes another group
				reqs = append(reqs, s)
			}
		}
	}
	names := RequirementsNames([]byte(strings.Join(reqs, "\n")))
	poetry := []map[string]any{p.Tool.Poetry.Dependencies, p.Tool.Poetry.DevDependencies}
	for _, g := range p.Tool.Poetry.Group {
		poetry = append(poetry, g.Dependencies)
	}
	names = append(names, sortedKeys(poetry...)...)
	slices.Sort(names)
	return slices.Compact(names)
}

// RequirementsNames are the package names of requirement lines (a
// requirements.txt, or PEP 508 strings): the name before any extra,
// version, marker or URL; options (-r, -e, --hash) and comments are
// skipped.
func RequirementsNames(data []byte) []string {
	var names []string
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, maxManifest)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || line[0] == '#' || line[0] == '-' {
			continue
		}
		end := strings.IndexFunc(line, func(r rune) bool { return !nameRune(r) })
		if end < 0 {
			end = len(line)
		}
		if name := line[:end]; name != "" {
			names = append(names, strings.ToLower(name))
		}
	}
	return names
}

// nameRune reports whether r may be part of a Python package's name.
func nameRune(r rune) bool {
	return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' || r == '.'
}

// GemfileGems are the gems a Gemfile names on its gem lines.
func GemfileGems(data []byte) []string {
	var gems []string
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, maxManifest)
	for sc.Scan() {
		rest, ok := strings.CutPrefix(strings.TrimSpace(sc.Text()), "gem ")
		if !ok {
			continue
		}
		rest = strings.TrimSpace(rest)
		if len(rest) < 2 || (rest[0] != '"' && rest[0] != '\'') {
			continue
		}
		if end := strings.IndexByte(rest[1:], rest[0]); end > 0 {
			gems = append(gems, rest[1:1+end])
		}
	}
	return gems
}

func sortedKeys(maps ...map[string]any) []string {
	var keys []string
	for _, m := range maps {
		for k := range m {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	return slices.Compact(keys)
}

// The well-known dependencies of each ecosystem, by the name a person
// writes of them. A key stands for every package under it too (lookup).
// Each is built on first use: only a prime reads them, and every planq
// process would otherwise pay for them at start-up.

var goModules = sync.OnceValue(func() map[string]string {
	return map[string]string{
		"github.com/spf13/cobra":                          "cobra",
		"github.com/urfave/cli":                           "urfave-cli",
		"github.com/gin-gonic/gin":                        "gin",
		"github.com/labstack/echo":                        "echo",
		"github.com/gofiber/fiber":                        "fiber",
		"github.com/go-chi/chi":                           "chi",
		"github.com/gorilla/mux":                          "gorilla",
		"gorm.io/gorm":                                    "gorm",
		"entgo.io/ent":                                    "ent",
		"github.com/jackc/pgx":                            "postgres",
		"github.com/lib/pq":                               "postgres",
		"github.com/mattn/go-sqlite3":                     "sqlite",
		"modernc.org/sqlite":                              "sqlite",
		"github.com/redis/go-redis":                       "redis",
		"go.mongodb.org/mongo-driver":                     "mongodb",
		"google.golang.org/grpc":                          "grpc",
		"google.golang.org/protobuf":                      "protobuf",
		"github.com/stretchr/testify":                     "testify",
		"github.com/rogpeppe/go-internal":                 "testscript",
		"github.com/onsi/ginkgo":                          "ginkgo",
		"go.uber.org/zap":                                 "zap",
		"github.com/sirupsen/logrus":                      "logrus",
		"github.com/prometheus/client_golang":             "prometheus",
		"go.opentelemetry.io/otel":                        "opentelemetry",
		"k8s.io/client-go":                                "kubernetes",
		"sigs.k8s.io/controller-runtime":                  "kubernetes",
		"github.com/aws/aws-sdk-go-v2":                    "aws",
		"github.com/aws/aws-sdk-go":                       "aws",
		"github.com/charmbracelet/bubbletea":              "bubbletea",
		"github.com/go-git/go-git":                        "go-git",
		"github.com/modelcontextprotocol/go-sdk":          "mcp",
		"github.com/mark3labs/mcp-go":                     "mcp",
		"github.com/spf13/viper":                          "viper",
		"github.com/golang-migrate/migrate":               "migrate",
		"github.com/jmoiron/sqlx":                         "sqlx",
		"github.com/nats-io/nats.go":                      "nats",
		"github.com/segmentio/kafka-go":                   "kafka",
		"github.com/confluentinc/confluent-kafka-go":      "kafka",
		"github.com/hashicorp/terraform-plugin-framework": "terraform",
		"github.com/chromedp/chromedp":                    "chromedp",
		"github.com/yuin/goldmark":                        "goldmark",
	}
})

var npmPackages = sync.OnceValue(func() map[string]string {
	return map[string]string{
		"react":                 "react",
		"react-dom":             "react",
		"react-native":          "react-native",
		"next":                  "next.js",
		"vue":                   "vue",
		"nuxt":                  "nuxt",
		"svelte":                "svelte",
		"@sveltejs/kit":         "sveltekit",
		"@angular/core":         "angular",
		"solid-js":              "solid",
		"astro":                 "astro",
		"@remix-run":            "remix",
		"express":               "express",
		"fastify":               "fastify",
		"koa":                   "koa",
		"@nestjs/core":          "nestjs",
		"hono":                  "hono",
		"electron":              "electron",
		"vite":                  "vite",
		"webpack":               "webpack",
		"esbuild":               "esbuild",
		"typescript":            "typescript",
		"jest":                  "jest",
		"vitest":                "vitest",
		"mocha":                 "mocha",
		"@playwright/test":      "playwright",
		"playwright":            "playwright",
		"cypress":               "cypress",
		"@testing-library":      "testing-library",
		"eslint":                "eslint",
		"prettier":              "prettier",
		"@biomejs/biome":        "biome",
		"tailwindcss":           "tailwind",
		"prisma":                "prisma",
		"@prisma/client":        "prisma",
		"drizzle-orm":           "drizzle",
		"typeorm":               "typeorm",
		"mongoose":              "mongodb",
		"pg":                    "postgres",
		"graphql":               "graphql",
		"@apollo/client":        "apollo",
		"redux":                 "redux",
		"@reduxjs/toolkit":      "redux",
		"zod":                   "zod",
		"@tanstack/react-query": "react-query",
		"storybook":             "storybook",
		"@storybook":            "storybook",
		"three":                 "three.js",
		"socket.io":             "socket.io",
	}
})

var crates = sync.OnceValue(func() map[string]string {
	return map[string]string{
		"tokio":        "tokio",
		"serde":        "serde",
		"axum":         "axum",
		"actix-web":    "actix",
		"rocket":       "rocket",
		"warp":         "warp",
		"clap":         "clap",
		"reqwest":      "reqwest",
		"sqlx":         "sqlx",
		"diesel":       "diesel",
		"bevy":         "bevy",
		"tauri":        "tauri",
		"anyhow":       "anyhow",
		"thiserror":    "thiserror",
		"tracing":      "tracing",
		"wasm-bindgen": "wasm",
		"tonic":        "grpc",
		"proptest":     "proptest",
		"criterion":    "criterion",
	}
})

var pythonPackages = sync.OnceValue(func() map[string]string {
	return map[string]string{
		"django":              "django",
		"djangorestframework": "django",
		"flask":               "flask",
		"fastapi":             "fastapi",
		"starlette":           "starlette",
		"pydantic":            "pydantic",
		"sqlalchemy":          "sqlalchemy",
		"alembic":             "alembic",
		"celery":              "celery",
		"pytest":              "pytest",
		"hypothesis":          "hypothesis",
		"numpy":               "numpy",
		"pandas":              "pandas",
		"polars":              "polars",
		"scipy":               "scipy",
		"scikit-learn":        "scikit-learn",
		"torch":               "pytorch",
		"tensorflow":          "tensorflow",
		"jax":                 "jax",
		"transformers":        "transformers",
		"langchain":           "langchain",
		"requests":            "requests",
		"httpx":               "httpx",
		"aiohttp":             "aiohttp",
		"click":               "click",
		"typer":               "typer",
		"ruff":                "ruff",
		"mypy":                "mypy",
		"black":               "black",
		"boto3":               "aws",
		"psycopg":             "postgres",
		"psycopg2":            "postgres",
		"psycopg2-binary":     "postgres",
		"redis":               "redis",
		"jupyter":             "jupyter",
		"streamlit":           "streamlit",
	}
})

var gems = sync.OnceValue(func() map[string]string {
	return map[string]string{
		"rails":       "rails",
		"sinatra":     "sinatra",
		"rspec":       "rspec",
		"rspec-rails": "rspec",
		"minitest":    "minitest",
		"sidekiq":     "sidekiq",
		"rubocop":     "rubocop",
		"pg":          "postgres",
		"puma":        "puma",
		"hanami":      "hanami",
	}
})

var composerPackages = sync.OnceValue(func() map[string]string {
	return map[string]string{
		"laravel/framework": "laravel",
		"symfony":           "symfony",
		"phpunit/phpunit":   "phpunit",
		"doctrine/orm":      "doctrine",
	}
})
