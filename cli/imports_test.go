package cli

import (
	"go/parser"
	"go/token"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestCommandLineGoesThroughTheService holds the command line to the front
// door: besides the project service, it imports the record model it
// presents, the error home, the agents' settings recipes and two internal
// helpers. A seventh package of planq's is a door beside the service
// (depguard names the layers no front end may import); the MCP server and
// the review page reach it through Servers, linked into planq-server only.
func TestCommandLineGoesThroughTheService(t *testing.T) {
	const module = "github.com/planq-dev/planq/"
	allowed := []string{"session", "changelog", "planqerr", "hooks", "internal/plural", "internal/platform"}
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), name, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range f.Imports {
			path, _ := strconv.Unquote(imp.Path.Value)
			if pkg, ok := strings.CutPrefix(path, module); ok && !slices.Contains(allowed, pkg) {
				t.Errorf("%s imports %s: reach it through the project service (package session)", name, pkg)
			}
		}
	}
}
