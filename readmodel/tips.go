package readmodel

import (
	"sort"

	"github.com/planq-dev/planq/project"
	"github.com/planq-dev/planq/staterepo"
)

// source is one branch a read takes records from. A read of every branch
// reads each agent branch whole, even one global has merged: promote leaves
// out of global the malformed records it refuses and the duplicates it
// merges into another, so global need not hold all of an agent it merged.
type source struct {
	tip staterepo.Hash
}

// sources are what a read of every branch takes: global and every agent
// branch, in name order.
func (rd *Reader) sources() ([]source, error) {
	branches, err := rd.repo.Branches("")
	if err != nil {
		return nil, err
	}
	names := make([]string, 0, len(branches))
	for name := range branches {
		if _, isAgent := project.AgentOfBranch(name); isAgent || name == project.GlobalBranch {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	out := make([]source, len(names))
	for i, n := range names {
		out[i] = source{tip: branches[n]}
	}
	return out, nil
}
