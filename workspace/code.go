package workspace

import (
	"context"
	"path/filepath"

	"github.com/planq-dev/planq/project"
	"github.com/planq-dev/planq/staterepo"
)

func codeRepo(p *project.Project) *staterepo.CodeRepo { return staterepo.OpenCode(p.Root) }

func codeChanges(ctx context.Context, p *project.Project, dir string) ([]string, error) {
	return codeRepo(p).Changes(ctx, dir)
}

func parent(path string) string { return filepath.Dir(path) }
