package team

import (
	"path"
	"sort"
	"strings"

	"github.com/planq-dev/planq/project"
	"github.com/planq-dev/planq/staterepo"
)

// ActionMemory is a file of the agent's memories/ folder (what the memory
// tool wrote) that promote carries to global.
const ActionMemory = "memory"

// memoryCandidates finds the files of the agent's memories/ folder that
// changed since its last promote (relative to the merge base) and what
// each does on global, three-way per path:
//
//   - changed on the agent's side only (global still has the base's
//     version, or neither has it): global takes the agent's, a deletion
//     included (the memory tool deletes for real);
//   - the same on both sides: nothing to do;
//   - changed on both sides differently (two agents wrote one memory path,
//     each its own way): global keeps its version and the agent's lands
//     beside it, at the path with the agent's name before the extension
//     (memories/repo/build.md from agent auth: memories/repo/build.auth.md),
//     so that neither is lost and the next memory view shows both; an
//     agent's deletion of a file global changed is not carried.
//
// The edits go to p.memories (a zero hash deletes).
func memoryCandidates(repo staterepo.Reads, agentName string, p *promotePlan) ([]Candidate, error) {
	mine, base, global, err := p.sides(repo, project.MemoriesDir)
	if err != nil {
		return nil, err
	}
	paths := map[string]bool{}
	for q := range mine {
		paths[q] = true
	}
	for q := range base {
		paths[q] = true
	}
	var out []Candidate
	for q := range paths {
		m, b, g := mine[q], base[q], global[q]
		switch {
		case m == b || m == g:
			// unchanged on the agent's side, or global has it already
		case g == b:
			p.memories[q] = m
			title := q
			if m.IsZero() {
				title = "deleted " + q
			}
			out = append(out, Candidate{Action: ActionMemory, Title: title, Path: q})
		case !m.IsZero():
			beside := besidePath(q, agentName)
			if global[beside] == m {
				continue // landed beside already
			}
			p.memories[beside] = m
			out = append(out, Candidate{Action: ActionMemory, Title: "beside " + q + " (global changed it too)", Path: beside})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out, nil
}

// besidePath is where agent's version of the memory at p lands when global
// holds another: the agent's name before the extension.
func besidePath(p, agentName string) string {
	ext := path.Ext(p)
	if strings.HasPrefix(path.Base(p), ".") || ext == path.Base(p) {
		ext = ""
	}
	return strings.TrimSuffix(p, ext) + "." + agentName + ext
}
