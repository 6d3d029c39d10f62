package readmodel

import (
	"bufio"
	"bytes"
	"context"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/planq-dev/planq/project"
	"github.com/planq-dev/planq/staterepo"
)

// source is one branch a read takes records from: its tip, and the commit
// whose promoted records global holds already (an agent branch's merge base
// with global), so that of the promoted kinds only the shards changed since
// are read; zero for none.
type source struct {
	tip, known staterepo.Hash
}

// sources are what a read of every branch takes: global whole, and of each
// agent branch its records of the kinds promote leaves (log entries,
// handoffs, checkpoints) and, of the promoted kinds, only what changed
// since it was last promoted: a learning written since costs its shard.
// Records are never deleted from global, so what global held once it holds
// still.
func (rd *Reader) sources() ([]source, error) {
	branches, err := rd.repo.Branches("")
	if err != nil {
		return nil, err
	}
	global, hasGlobal := branches[project.GlobalBranch]
	var names []string
	for name := range branches {
		if _, isAgent := project.AgentOfBranch(name); isAgent {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	if !hasGlobal {
		out := make([]source, len(names))
		for i, n := range names {
			out[i] = source{tip: branches[n]}
		}
		return out, nil
	}
	bases := rd.loadBases(global)
	out := []source{{tip: global}}
	changed := false
	for _, n := range names {
		tip := branches[n]
		base, ok := bases.known[tip]
		if !ok {
			// git finds it with the commit-graph; the answer is kept for as
			// long as neither tip moves.
			h, found, err := rd.repo.MergeBase(context.Background(), tip, global)
			if err != nil {
				return nil, err
			}
			if found {
				base = h
			}
			bases.known[tip], changed = base, true
		}
		out = append(out, source{tip: tip, known: base})
	}
	if changed {
		rd.saveBases(bases)
	}
	return out, nil
}

// bases are the merge bases of agent tips with one tip of global, kept in
// one small file that a move of global replaces.
type bases struct {
	global staterepo.Hash
	known  map[staterepo.Hash]staterepo.Hash // agent tip: merge base, zero for none
}

func (rd *Reader) basesFile() string { return filepath.Join(rd.cacheDir, "merge-bases") }

func (rd *Reader) loadBases(global staterepo.Hash) bases {
	b := bases{global: global, known: map[staterepo.Hash]staterepo.Hash{}}
	data, err := os.ReadFile(rd.basesFile())
	if err != nil {
		return b
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	if !sc.Scan() || sc.Text() != global.String() {
		return b // of another global: of no use
	}
	for sc.Scan() {
		tip, base, ok := strings.Cut(sc.Text(), " ")
		if !ok || !isHex(tip) || !isHex(base) {
			return bases{global: global, known: map[staterepo.Hash]staterepo.Hash{}} // damaged: ask git again
		}
		b.known[staterepo.NewHash(tip)] = staterepo.NewHash(base)
	}
	return b
}

func (rd *Reader) saveBases(b bases) {
	var buf bytes.Buffer
	buf.WriteString(b.global.String() + "\n")
	for tip, base := range b.known {
		buf.WriteString(tip.String() + " " + base.String() + "\n")
	}
	_ = writeCacheFile(rd.basesFile(), buf.Bytes()) // losing it costs a git merge-base per agent, once
}

func isHex(s string) bool {
	if len(s) != 40 {
		return false
	}
	for _, c := range s {
		if !strings.ContainsRune("0123456789abcdef", c) {
			return false
		}
	}
	return true
}
