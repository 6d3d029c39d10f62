// Package ringfix breaks rings of versions (A supersedes B, B supersedes
// A: only plain git or an old import writes one) in an agent's worktree:
// the repair both validate --fix (package lifecycle) and doctor --fix
// (package workspace, which lifecycle's tests build projects with, so it
// cannot import lifecycle) make.
//
// A new version cannot end a ring (it would supersede one version and
// leave the others naming each other), so the file of one version is
// rewritten, as validate --fix rewrites what else it repairs, and the
// commit names the link it dropped: the file as it was stays in history.
// Of each ring the version readers show, the newest, stays current
// (changelog.RingCut): the one link that names it is dropped.
//
// Role: write side, beside lifecycle.
package ringfix

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"

	"github.com/planq-dev/planq/agent"
	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/internal/plural"
	"github.com/planq-dev/planq/readmodel"
)

// Cut is one link Plan drops: the file it is dropped from, and why.
type Cut struct {
	Path string `json:"path"`
	What string `json:"what"`
}

// Plan finds each ring of versions among the records of every branch that
// the agent's worktree can break, and adds to changes (never overwriting
// one there) the file of the version that supersedes the ring's newest,
// without that supersedes line. A ring whose link is in no file here, as
// the branches read it (another agent's branch, global alone), is left to
// where it is.
func Plan(a *agent.Agent, changes map[string][]byte) ([]Cut, error) {
	set, err := a.Store().Records.All()
	if err != nil {
		return nil, err
	}
	byID := make(map[string]*changelog.Record, len(set.Records))
	for _, r := range set.Records {
		byID[r.ID] = r
	}
	var cuts []Cut
	for _, ring := range changelog.SupersedesRings(set.Records) {
		newest, cut := changelog.RingCut(ring, byID)
		rel := cut.Path
		if rel == "" {
			rel = changelog.RecordPath(cut)
		}
		if _, taken := changes[rel]; taken {
			continue
		}
		data, err := os.ReadFile(filepath.Join(a.Dir, filepath.FromSlash(rel)))
		if err != nil {
			continue // not in this worktree: the branch that holds it is where to break it
		}
		out, ok := withoutSupersedes(rel, data, cut.ID, newest.ID)
		if !ok {
			continue // not as the branches read it, or not safely: left for a person
		}
		changes[rel] = out
		what := fmt.Sprintf("supersedes %s dropped: %s; %s, the newest, is the current version", newest.ID, readmodel.RingProblem(ring), newest.ID)
		if cut == newest {
			what = fmt.Sprintf("supersedes %s dropped: %s", newest.ID, readmodel.RingProblem(ring))
		}
		cuts = append(cuts, Cut{Path: rel, What: what})
	}
	return cuts, nil
}

// Break is Plan, and nothing else, in one commit (none when there is
// nothing to break): doctor's repair. It returns the cuts and the commit.
func Break(ctx context.Context, a *agent.Agent) ([]Cut, string, error) {
	changes := map[string][]byte{}
	cuts, err := Plan(a, changes)
	if err != nil || len(cuts) == 0 {
		return cuts, "", err
	}
	commit, err := a.Rewrite(ctx, changes, Message("doctor --fix: break "+plural.Of(len(cuts), "ring")+" of versions", cuts))
	if err != nil {
		return nil, "", err
	}
	return cuts, commit.String(), nil
}

// Message is a repair's commit message naming each link it dropped, so
// that the history says why, beside the file as it was.
func Message(subject string, cuts []Cut) string {
	if len(cuts) == 0 {
		return subject
	}
	subject += "\n"
	for _, c := range cuts {
		subject += "\n" + c.Path + ": " + c.What
	}
	return subject
}

// withoutSupersedes is data, the file of record id, without its
// supersedes line naming old: everything else as it was, byte for byte.
// It answers false unless data reads as that record, and reads as it
// without the link afterwards.
func withoutSupersedes(rel string, data []byte, id, old string) ([]byte, bool) {
	was, err := changelog.Parse(rel, data)
	if err != nil || was.ID != id || was.Supersedes != old {
		return nil, false
	}
	lines := bytes.SplitAfter(data, []byte("\n"))
	if len(lines) == 0 || strings.TrimSpace(string(lines[0])) != "---" {
		return nil, false
	}
	dropped := -1
	for i := 1; i < len(lines); i++ {
		line := strings.TrimRight(string(lines[i]), "\r\n")
		if strings.TrimSpace(line) == "---" {
			break
		}
		if key, value, ok := strings.Cut(line, ":"); ok && key == "supersedes" && strings.Trim(strings.TrimSpace(value), `"'`) == old {
			dropped = i
			break
		}
	}
	if dropped < 0 {
		return nil, false
	}
	out := bytes.Join(append(lines[:dropped:dropped], lines[dropped+1:]...), nil)
	now, err := changelog.Parse(rel, out)
	if err != nil || now.Supersedes != "" {
		return nil, false
	}
	was.Supersedes = ""
	if !reflect.DeepEqual(was, now) {
		return nil, false
	}
	return out, true
}
