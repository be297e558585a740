package lobbytest

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"sort"
	"strings"
)

// ErrorsDeclared reads the Go files of the directory dir, but its tests,
// and returns the names of its sentinels (package-level variables named
// Err… or err…) and of its types that have an Error method: the errors a
// test holds to having a kind (lobby.KindOf). With exported, only the
// exported ones.
func ErrorsDeclared(dir string, exported bool) ([]string, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		return nil, err
	}
	fset := token.NewFileSet()
	keep := func(id *ast.Ident) bool { return id.IsExported() || !exported }
	var names []string
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		file, err := parser.ParseFile(fset, f, nil, parser.SkipObjectResolution)
		if err != nil {
			return nil, err
		}
		for _, d := range file.Decls {
			switch d := d.(type) {
			case *ast.GenDecl:
				if d.Tok != token.VAR {
					continue
				}
				for _, s := range d.Specs {
					for _, n := range s.(*ast.ValueSpec).Names {
						if (strings.HasPrefix(n.Name, "Err") || strings.HasPrefix(n.Name, "err")) && keep(n) {
							names = append(names, n.Name)
						}
					}
				}
			case *ast.FuncDecl:
				if d.Recv == nil || d.Name.Name != "Error" || len(d.Recv.List) != 1 {
					continue
				}
				typ := d.Recv.List[0].Type
				if star, ok := typ.(*ast.StarExpr); ok {
					typ = star.X
				}
				if id, ok := typ.(*ast.Ident); ok && keep(id) {
					names = append(names, id.Name)
				}
			}
		}
	}
	sort.Strings(names)
	return names, nil
}
