package importing_test

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/planq-dev/planq/internal/importing"
)

// TestStackNamesWhatAProjectIsMadeWith: each fixture checkout (testdata/stack)
// gives its languages, then its well-known dependencies, then its tools;
// its own modules, indirect requirements and unknown packages are not
// named; a manifest that does not parse still names its language.
func TestStackNamesWhatAProjectIsMadeWith(t *testing.T) {
	for dir, want := range map[string][]string{
		"gocli":      {"go", "cobra", "postgres", "testscript", "docker", "makefile", "github-actions"},
		"nextapp":    {"node", "typescript", "testing-library", "jest", "next.js", "react", "pnpm"},
		"pyapi":      {"python", "fastapi", "pytest", "ruff", "sqlalchemy", "uv"},
		"djangoreqs": {"python", "django", "postgres", "celery"},
		"railsapp":   {"ruby", "rails", "postgres", "rspec"},
		"rustsvc":    {"rust", "axum", "proptest", "tokio", "cargo"},
		"brokennode": {"node"},
		"plain":      nil,
		"missing":    nil,
	} {
		if got := importing.Stack(filepath.Join("testdata", "stack", dir)); !slices.Equal(got, want) {
			t.Errorf("%s: Stack = %q, want %q", dir, got, want)
		}
	}
}

func FuzzGoModRequires(f *testing.F) {
	f.Add("module m\n\nrequire a.b/c v1.0.0\nrequire (\n\tx.y/z v2.0.0 // indirect\n\tq.r/s v0.1.0\n)\n")
	f.Add("require (\n)\nrequire\n")
	f.Fuzz(func(t *testing.T, gomod string) {
		for _, m := range importing.GoModRequires([]byte(gomod)) {
			if m == "" || strings.ContainsAny(m, " \t\n") || !strings.Contains(gomod, m) {
				t.Fatalf("module %q is not a word of the go.mod %q", m, gomod)
			}
		}
	})
}

func FuzzRequirementsNames(f *testing.F) {
	f.Add("Django==5.0\n# c\n-r base.txt\ncelery[redis]\n")
	f.Add("pkg ; python_version < '3'\n")
	f.Fuzz(func(t *testing.T, reqs string) {
		for _, n := range importing.RequirementsNames([]byte(reqs)) {
			if n == "" || strings.ContainsAny(n, " \t\n=<>[;") || !strings.Contains(strings.ToLower(reqs), n) {
				t.Fatalf("name %q is not a requirement's name in %q", n, reqs)
			}
		}
	})
}

func FuzzGemfileGems(f *testing.F) {
	f.Add("gem \"rails\", \"~> 7\"\ngem 'pg'\n")
	f.Add("gem \"\ngem '")
	f.Fuzz(func(t *testing.T, gemfile string) {
		for _, g := range importing.GemfileGems([]byte(gemfile)) {
			if g == "" || strings.ContainsAny(g, "\n") || !strings.Contains(gemfile, g) {
				t.Fatalf("gem %q is not named in %q", g, gemfile)
			}
		}
	})
}

// FuzzManifests: the JSON and TOML manifests' readers never fail on what
// they are given, and every name they return is a key of it.
func FuzzManifests(f *testing.F) {
	f.Add(`{"dependencies":{"react":"1"},"devDependencies":{"jest":"2"}}`)
	f.Add("[dependencies]\ntokio = \"1\"\n[project]\ndependencies = [\"fastapi>=1\"]\n")
	f.Add("[tool.poetry.group.dev.dependencies]\npytest = \"*\"\n[dependency-groups]\ndev = [\"ruff\", {include-group = \"x\"}]\n")
	f.Fuzz(func(t *testing.T, manifest string) {
		lower := strings.ToLower(manifest)
		for _, names := range [][]string{importing.PackageJSONDependencies([]byte(manifest)), importing.ComposerRequires([]byte(manifest)),
			importing.CargoDependencies([]byte(manifest)), importing.PyprojectDependencies([]byte(manifest))} {
			for _, n := range names {
				if !strings.Contains(lower, strings.ToLower(n)) && !strings.ContainsAny(manifest, `\`) {
					t.Fatalf("name %q is not in the manifest %q", n, manifest)
				}
			}
		}
	})
}
