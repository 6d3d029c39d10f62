package cli

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"testing"
)

// TestReadCommandsOpenNoWriter: the commands that only read open the
// project through the read handle (withHandle), never the writer's store:
// a reader that can write is one mistake away from writing.
func TestReadCommandsOpenNoWriter(t *testing.T) {
	readers := map[string]bool{
		"runShow": true, "runLog": true, "runStatus": true, "runNotes": true,
		"runProposalsList": true, "runProposalsShow": true, "runCurate": true,
		"runList": true, "listAgents": true, "runGet": true, "runSearch": true, "runQuery": true,
		"runPlanShow": true, "runExport": true,
	}
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	seen := map[string]bool{}
	for _, name := range files {
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok || fn.Recv != nil || !readers[fn.Name.Name] {
				continue
			}
			seen[fn.Name.Name] = true
			ast.Inspect(fn, func(n ast.Node) bool {
				switch n := n.(type) {
				case *ast.Ident:
					if n.Name == "withStore" {
						t.Errorf("%s: %s opens the writer's store (withStore); a read opens the handle (withHandle)", fset.Position(n.Pos()), fn.Name.Name)
					}
				case *ast.SelectorExpr:
					if x, ok := n.X.(*ast.Ident); ok && x.Name == "agent" && n.Sel.Name == "Store" {
						t.Errorf("%s: %s takes the writer's store (agent.Store); a read takes *readmodel.Handle", fset.Position(n.Pos()), fn.Name.Name)
					}
				}
				return true
			})
		}
	}
	for name := range readers {
		if !seen[name] {
			t.Errorf("no function %s in package cli: update the list of readers", name)
		}
	}
}
