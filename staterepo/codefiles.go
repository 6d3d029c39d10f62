package staterepo

import (
	"context"
	"fmt"
	"slices"
	"strings"
)

// Files lists the files git sees in the checkout at Dir, by their paths
// from Dir (slash-separated), each once, sorted: the tracked ones and the
// untracked ones git does not ignore. What .gitignore, .git/info/exclude or
// core.excludesFile leaves out (node_modules, a virtual environment, the
// mounted agent) is not listed, nor the files of a nested repository or
// under a symbolic link to a directory, which git does not descend into.
func (c *CodeRepo) Files(ctx context.Context) ([]string, error) {
	out, err := c.git.RunInput(ctx, nil, "-c", "core.quotePath=false", "ls-files", "-z", "--cached", "--others", "--exclude-standard")
	if err != nil {
		return nil, fmt.Errorf("failed to list the files of %s: %w", c.Dir, err)
	}
	var files []string
	for _, f := range strings.Split(string(out), "\x00") {
		// A nested repository git does not descend into is listed as "dir/".
		if f != "" && !strings.HasSuffix(f, "/") {
			files = append(files, f)
		}
	}
	slices.Sort(files)
	// A file with a merge conflict is in the index once per side.
	return slices.Compact(files), nil
}
