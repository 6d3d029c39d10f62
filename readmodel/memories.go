package readmodel

import (
	"path"
	"slices"
	"sort"
	"strings"

	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/project"
	"github.com/planq-dev/planq/readmodel/internal/engine"
)

// KindMemory labels what a search finds among the files the memory tool
// writes (memories/ on an agent's branch or on global): no record kind,
// no row of the kind table, but found and shown beside records, and the
// kind a search may be narrowed to (planq search --kind memory).
const KindMemory changelog.Kind = "memory"

// Memory is one file of a branch's memories/ folder as the read model
// holds it: its path (memories/...), size, title (its first line that
// says something, else its name) and, when it is indexed, its text. A
// file that is not text or is larger than a record may be is listed with
// why it is not indexed (Skipped), never read as text.
type Memory struct {
	Path    string `json:"path"`
	Size    int64  `json:"size"`
	Title   string `json:"title"`
	Text    string `json:"-"`
	Skipped string `json:"skipped,omitempty"`
}

// Memories lists the memory files of branch (an agent's, or global), by
// path: from the read model's index of them, built once per tree of
// memories/ and kept in the cache, so a session start reads them without
// git. None when the branch does not exist or has no memories/ folder.
func (rd *Reader) Memories(branch string) ([]Memory, error) {
	branches, err := rd.e.Branches(branch)
	if err != nil {
		return nil, err
	}
	tip, ok := branches[branch]
	if !ok {
		return nil, nil
	}
	set, err := rd.e.MemoriesAt(tip)
	if err != nil {
		return nil, err
	}
	out := make([]Memory, 0, len(set.List)+len(set.Problems))
	for _, f := range set.List {
		out = append(out, Memory{Path: f.Path, Size: int64(len(f.Text)), Title: f.Title, Text: f.Text})
	}
	for _, s := range set.Problems {
		out = append(out, Memory{Path: s.Path, Size: s.Size, Title: path.Base(s.Path), Skipped: s.Why})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out, nil
}

// IsMemoryPath reports whether p is a file of a memories/ folder that get
// reads: under memories/, with no hidden name (the memory tool writes
// none).
func IsMemoryPath(p string) bool {
	rest, ok := strings.CutPrefix(p, project.MemoriesDir+"/")
	if !ok || rest == "" {
		return false
	}
	for _, c := range strings.Split(rest, "/") {
		if c == "" || strings.HasPrefix(c, ".") {
			return false
		}
	}
	return true
}

// memoryKinds splits the kinds a search asks for into the kinds of the
// table and whether memories are asked for: when none are named, every
// searched kind and the memories.
func memoryKinds(kinds []changelog.Kind) ([]changelog.Kind, bool) {
	if len(kinds) == 0 {
		return nil, true
	}
	if !slices.Contains(kinds, KindMemory) {
		return kinds, false
	}
	return slices.DeleteFunc(slices.Clone(kinds), func(k changelog.Kind) bool { return k == KindMemory }), true
}

// memorySources are the branches whose memories a search reads: branch
// alone when one is named, else global and every agent branch, global
// first (a memory promoted to global is shown as global holds it).
func (rd *Reader) memorySources(branch string) ([]engine.MemorySource, error) {
	if branch != "" {
		tip, err := rd.e.Tip(branch)
		if err != nil {
			return nil, err
		}
		src := engine.MemorySource{Tip: tip}
		if name, ok := project.AgentOfBranch(branch); ok {
			src.Agent = name
		}
		return []engine.MemorySource{src}, nil
	}
	branches, err := rd.e.Branches("")
	if err != nil {
		return nil, err
	}
	out := []engine.MemorySource{}
	if tip, ok := branches[project.GlobalBranch]; ok {
		out = append(out, engine.MemorySource{Tip: tip})
	}
	var names []string
	for b := range branches {
		if _, ok := project.AgentOfBranch(b); ok {
			names = append(names, b)
		}
	}
	sort.Strings(names)
	for _, b := range names {
		name, _ := project.AgentOfBranch(b)
		out = append(out, engine.MemorySource{Tip: branches[b], Agent: name})
	}
	return out, nil
}

// Branch is the branch whose file the hit is: a memory file differs from
// one branch to the next (an agent edits what promote carried to global),
// while a record is the same wherever it is; "" for a record.
func (h Hit) Branch() string {
	if h.Kind != KindMemory {
		return ""
	}
	if h.Agent == "" {
		return project.GlobalBranch
	}
	return project.AgentBranch(h.Agent)
}
