package session

import (
	"context"
	"path/filepath"

	"github.com/planq-dev/planq/agent"
	"github.com/planq-dev/planq/internal/mulch"
	"github.com/planq-dev/planq/lifecycle"
)

// ImportInput is what planq import mulch takes.
type ImportInput struct {
	// Agent names the agent the learnings are written by; empty means the
	// one mounted here.
	Agent string
	// Dir is the mulch directory (a .mulch or the one holding it); empty
	// means the code checkout's .mulch.
	Dir string
	// Source names the project the records come from, in their origins;
	// empty means this project's name for its own .mulch, else the name of
	// the directory holding .mulch.
	Source      string
	DryRun      bool
	Strict      bool
	AllowSecret bool
}

// Imported is what an import did (the JSON of planq import mulch --json),
// and for which agent.
type Imported struct {
	lifecycle.ImportResult
	Agent string `json:"-"`
}

// RefusedCounts counts the lines an import refused, and the files it read
// none of (a FIFO, a link out of the mulch directory).
func (r Imported) RefusedCounts() (lines, files int) {
	for _, ref := range r.Refused {
		if ref.Line == 0 {
			files++
		} else {
			lines++
		}
	}
	return lines, files
}

// ImportMulch imports a mulch directory's expertise as learnings of the
// agent, in one commit. Lines it cannot import are in Refused, and with
// Strict nothing is imported then (an error of kind Corrupt, with the
// result still saying why).
func (s *Project) ImportMulch(ctx context.Context, in ImportInput) (Imported, error) {
	a, err := s.agent(ctx, in.Agent)
	if err != nil {
		return Imported{}, err
	}
	p, err := s.project()
	if err != nil {
		return Imported{}, err
	}
	own := filepath.Join(p.Root, ".mulch")
	dir, source := in.Dir, in.Source
	if dir == "" {
		dir = own
	}
	if located, err := mulch.Locate(dir); source == "" && err == nil && sameDir(located, own) {
		source = p.Config.Project // the project's own records
	}
	res, err := lifecycle.ImportMulch(ctx, a, dir, p.Root, lifecycle.ImportOptions{Source: source, DryRun: in.DryRun,
		Strict: in.Strict, Write: agent.WriteOptions{AllowSecret: in.AllowSecret}})
	return Imported{ImportResult: res, Agent: a.Name}, err
}

// sameDir tells whether a and b name one directory.
func sameDir(a, b string) bool {
	x, errX := filepath.Abs(a)
	y, errY := filepath.Abs(b)
	if errX != nil || errY != nil {
		return filepath.Clean(a) == filepath.Clean(b)
	}
	if ex, err := filepath.EvalSymlinks(x); err == nil {
		x = ex
	}
	if ey, err := filepath.EvalSymlinks(y); err == nil {
		y = ey
	}
	return x == y
}
