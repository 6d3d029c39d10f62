package workspace

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/planq-dev/planq/agent"
	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/lifecycle/ringfix"
	"github.com/planq-dev/planq/project"
	"github.com/planq-dev/planq/readmodel"
)

// checkRings reports each ring of versions (records that supersede each
// other, made by plain git or an old import): no version of one is current
// for sure, and edit, revalidate, retract and promote refuse them. The fix
// is validate --fix's: in the worktree of the mounted agent whose branch
// holds the link, the one link that names the ring's newest version is
// dropped, one commit, and the newest stays current (ringfix.Break).
// A ring whose link no mounted worktree holds is left to its agent.
func checkRings(ctx context.Context, p *project.Project, add func(Finding, func() error)) error {
	store, err := agent.OpenStore(ctx, p)
	if err != nil {
		return err
	}
	defer store.Close()
	set, err := store.Records.All()
	if err != nil {
		return err
	}
	rings := changelog.SupersedesRings(set.Records)
	if len(rings) == 0 {
		return nil
	}
	byID := make(map[string]*changelog.Record, len(set.Records))
	for _, r := range set.Records {
		byID[r.ID] = r
	}
	mounted, err := mountedAgents(store.Repo)
	if err != nil {
		return err
	}
	// Every ring is looked at before any is repaired: one repair breaks
	// every ring its worktree holds.
	type found struct {
		f      Finding
		holder string
	}
	var all []found
	for _, ring := range rings {
		newest, cut := changelog.RingCut(ring, byID)
		path := cut.Path
		if path == "" {
			path = changelog.RecordPath(cut)
		}
		f := Finding{Check: "rings", Problem: path + ": " + readmodel.RingProblem(ring)}
		holder := holderOf(mounted, path, cut.ID, newest.ID)
		if holder == "" {
			f.Fix = fmt.Sprintf("none automatic: no mounted agent holds %s; in the .planq/agent of the agent whose branch does, run 'planq validate --fix' (it drops the supersedes of %s, keeping %s, the newest, current)",
				path, cut.ID, newest.ID)
		} else {
			f.Fix = fmt.Sprintf("drop the supersedes of %s in agent %s's worktree, one commit: %s, the newest, stays current", cut.ID, holder, newest.ID)
		}
		all = append(all, found{f, holder})
	}
	for _, fd := range all {
		if fd.holder == "" {
			add(fd.f, nil)
			continue
		}
		add(fd.f, func() error {
			a, err := store.Agent(fd.holder)
			if err != nil {
				return err
			}
			_, _, err = ringfix.Break(ctx, a)
			return err
		})
	}
	return nil
}

// holderOf is the mounted agent whose worktree holds record id at path
// superseding old, "" for none.
func holderOf(mounted []mountedAgent, path, id, old string) string {
	for _, m := range mounted {
		data, err := os.ReadFile(filepath.Join(m.Path, filepath.FromSlash(path)))
		if err != nil {
			continue
		}
		if r, err := changelog.Parse(path, data); err == nil && r.ID == id && r.Supersedes == old {
			return m.name
		}
	}
	return ""
}
