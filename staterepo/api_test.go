package staterepo

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// goGitAllowed are the go-git names staterepo's exported API may show:
// the object ID, under planq's own name (Hash, ZeroHash).
var goGitAllowed = map[string]bool{"plumbing.Hash": true, "plumbing.ZeroHash": true}

// TestExportedAPIHidesGoGit keeps go-git behind the seam: no exported
// function, method, field, type or variable of staterepo mentions a go-git
// type other than the object ID. Callers read commits, trees and refs as
// staterepo's own types, so swapping an engine never ripples upward.
func TestExportedAPIHidesGoGit(t *testing.T) {
	fset := token.NewFileSet()
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		checked++
		goGit := map[string]bool{}
		for _, imp := range f.Imports {
			path, _ := strconv.Unquote(imp.Path.Value)
			if !strings.HasPrefix(path, "github.com/go-git/") {
				continue
			}
			local := filepath.Base(path)
			if imp.Name != nil {
				local = imp.Name.Name
			}
			goGit[local] = true
		}
		for _, leak := range goGitInAPI(f, goGit) {
			t.Errorf("%s: exported API shows go-git's %s; return a staterepo type instead", fset.Position(leak.Pos()), leak.name)
		}
	}
	if checked == 0 {
		t.Fatal("no source files checked")
	}
}

type leak struct {
	ast.Node
	name string
}

// goGitInAPI finds go-git names in the exported declarations of f.
func goGitInAPI(f *ast.File, goGit map[string]bool) []leak {
	var found []leak
	look := func(n ast.Node) {
		if n == nil {
			return
		}
		ast.Inspect(n, func(n ast.Node) bool {
			sel, ok := n.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			if id, ok := sel.X.(*ast.Ident); ok && goGit[id.Name] && !goGitAllowed[id.Name+"."+sel.Sel.Name] {
				found = append(found, leak{sel, id.Name + "." + sel.Sel.Name})
			}
			return true
		})
	}
	for _, decl := range f.Decls {
		switch d := decl.(type) {
		case *ast.FuncDecl:
			if d.Name.IsExported() && (d.Recv == nil || exportedReceiver(d.Recv)) {
				if d.Recv != nil {
					look(d.Recv)
				}
				look(d.Type)
			}
		case *ast.GenDecl:
			for _, spec := range d.Specs {
				switch s := spec.(type) {
				case *ast.TypeSpec:
					if s.Name.IsExported() {
						lookType(s.Type, look)
					}
				case *ast.ValueSpec:
					if anyExported(s.Names) {
						look(s.Type)
						for _, v := range s.Values {
							look(v)
						}
					}
				}
			}
		}
	}
	return found
}

// lookType inspects a type's exported parts: a struct's exported fields
// (unexported ones are the implementation), everything else whole.
func lookType(t ast.Expr, look func(ast.Node)) {
	st, ok := t.(*ast.StructType)
	if !ok {
		look(t)
		return
	}
	for _, field := range st.Fields.List {
		if len(field.Names) == 0 || anyExported(field.Names) {
			if len(field.Names) == 0 && !embeddedExported(field.Type) {
				continue
			}
			look(field.Type)
		}
	}
}

func exportedReceiver(recv *ast.FieldList) bool {
	if recv == nil || len(recv.List) == 0 {
		return false
	}
	t := recv.List[0].Type
	if star, ok := t.(*ast.StarExpr); ok {
		t = star.X
	}
	id, ok := t.(*ast.Ident)
	return ok && id.IsExported()
}

func embeddedExported(t ast.Expr) bool {
	if star, ok := t.(*ast.StarExpr); ok {
		t = star.X
	}
	switch e := t.(type) {
	case *ast.Ident:
		return e.IsExported()
	case *ast.SelectorExpr:
		return e.Sel.IsExported()
	}
	return false
}

func anyExported(names []*ast.Ident) bool {
	for _, n := range names {
		if n.IsExported() {
			return true
		}
	}
	return false
}
