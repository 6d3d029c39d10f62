package agent

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/planq-dev/planq/internal/atomicfile"

	"github.com/planq-dev/planq/planqerr"
	"github.com/planq-dev/planq/project"
)

// MaxArtifactSize bounds one artifact: a generated output worth keeping
// beside the agent's records (a report, a diagram), not a build.
const MaxArtifactSize = 1 << 20

// Artifact is one file in the agent's artifacts/ folder.
type Artifact struct {
	Name string `json:"name"`
	Path string `json:"path"`
	Size int64  `json:"size"`
}

// AddArtifact stores data as artifacts/<name> in the agent's worktree and
// commits it. Artifacts are files, not records: prime and search leave them
// out, and they are never promoted.
func (a *Agent) AddArtifact(ctx context.Context, name string, data []byte, opts WriteOptions) (Written, error) {
	if err := validArtifactName(name); err != nil {
		return Written{}, err
	}
	if len(data) > MaxArtifactSize {
		return Written{}, planqerr.New(planqerr.Invalid, "artifact "+quote(name), "is over 1 MiB, the most an artifact holds").
			WithHint("keep large outputs in the code repository or your build system, and cite their path in a log entry")
	}
	if utf8.Valid(data) { // text is scanned like a record; binary output is not text to scan
		if err := refuseSecret("artifact "+quote(name), data, opts); err != nil {
			return Written{}, err
		}
	}
	wt, unlock, err := a.lockedWorktree(ctx)
	if err != nil {
		return Written{}, err
	}
	defer unlock()
	rel := project.ArtifactsDir + "/" + name
	path := filepath.Join(a.Dir, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return Written{}, fmt.Errorf("failed to create %s: %w", filepath.Dir(path), err)
	}
	if err := atomicfile.WriteFile(path, data, 0o644); err != nil {
		return Written{}, fmt.Errorf("failed to write %s: %w", path, err)
	}
	commit, err := wt.CommitFiles(ctx, []string{rel}, fmt.Sprintf("artifact: %s\n\n%s: %s\n", name, trailerAgent, a.Name))
	if err != nil {
		return Written{}, err
	}
	return Written{Path: rel, Commit: commit.String(), Agent: a.Name}, nil
}

// Artifacts lists the artifacts on the agent's branch, by name.
func (a *Agent) Artifacts() ([]Artifact, error) {
	tip, err := a.store.Repo.Tip(a.Branch)
	if err != nil {
		return nil, err
	}
	files, err := a.store.Repo.Walk(tip, []string{project.ArtifactsDir}, nil)
	if err != nil {
		return nil, err
	}
	out := []Artifact{}
	for _, f := range files {
		data, err := a.store.Repo.ReadBlob(f.Blob)
		if err != nil {
			return nil, err
		}
		out = append(out, Artifact{Name: strings.TrimPrefix(f.Path, project.ArtifactsDir+"/"), Path: f.Path, Size: int64(len(data))})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, nil
}

func validArtifactName(name string) error {
	bad := name == "" || len(name) > 100 || strings.HasPrefix(name, ".") || strings.Contains(name, "..")
	for _, r := range name {
		ok := r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' || r == '.'
		bad = bad || !ok
	}
	if bad {
		return planqerr.New(planqerr.Invalid, "artifact "+quote(name), "is not a file name planq keeps").
			WithHint("use letters, digits, '-', '_' and '.', not starting with '.' (at most 100 characters), like report.html")
	}
	return nil
}
