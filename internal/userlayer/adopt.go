package userlayer

import (
	"context"
	"strings"

	"github.com/planq-dev/planq/agent"
	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/project"
	"github.com/planq-dev/planq/readmodel"
)

// AdoptOptions choose what an adoption copies.
type AdoptOptions struct {
	// IDs are the user layer's records to copy.
	IDs []string
	// DryRun reports what would land and changes nothing.
	DryRun bool
	// AllowSecret is the agent's writer's: the copy is checked as every
	// record the agent writes.
	AllowSecret bool
}

// Adopted is what an adoption did.
type Adopted struct {
	Agent   string   `json:"agent"`
	Records []Copied `json:"records"`
}

// Adopt copies the chosen learnings and decisions of the user layer into
// the project as new records of agent a, each written through the agent's
// writer (Agent.Learn: stamped, checked and committed as every record it
// writes) with origin "user/<id>", and without the code it may cite
// (anchors, the evidence's files, commit and branch: another
// repository's). A record adopted before (a record of
// the project, on any branch, names that origin, or it is the user layer's
// copy of one of the project's) is reported present and lands no second
// time.
func Adopt(ctx context.Context, from *readmodel.Handle, a *agent.Agent, opts AdoptOptions) (Adopted, error) {
	res := Adopted{Agent: a.Name, Records: []Copied{}}
	ids := dedupe(opts.IDs)
	if len(ids) == 0 {
		return res, nil
	}
	src, err := from.Records.Branch(project.GlobalBranch, changelog.KindLearning, changelog.KindDecision)
	if err != nil {
		return res, err
	}
	store := a.Store()
	mine, err := store.Records.All(changelog.KindLearning, changelog.KindDecision)
	if err != nil {
		return res, err
	}
	name := store.Project.Config.Project
	have := map[string]string{} // origin → the project's copy
	held := map[string]bool{}
	for _, r := range mine.Current() {
		if r.Origin != "" {
			have[r.Origin] = r.ID
		}
	}
	for _, r := range mine.Records {
		held[r.ID] = true
	}
	for _, id := range ids {
		rec, err := pick(src, id, "the user layer")
		if err != nil {
			return res, err
		}
		c := adoptedAs(rec, name, held, have)
		if c.Action == ActionPresent || opts.DryRun {
			res.Records = append(res.Records, c)
			continue
		}
		cp := withoutCode(carried(rec))
		cp.Origin = c.Origin
		if rec.Supersedes != "" {
			cp.Supersedes = have[OriginPrefix+rec.Supersedes]
		}
		w, err := a.Learn(ctx, cp, agent.LearnOptions{WriteOptions: agent.WriteOptions{AllowSecret: opts.AllowSecret}})
		if err != nil {
			return res, refusedCopy(err, "record "+rec.ID+" of the user layer", "project "+quote(name), "")
		}
		c.Copy = w.ID
		have[c.Origin] = w.ID
		res.Records = append(res.Records, c)
	}
	return res, nil
}

// adoptedAs is what adopting the user layer's rec into project name does:
// present already (the user layer's copy of one of the project's records,
// held, or adopted before: have maps origins to the project's copies), or
// a copy added.
func adoptedAs(rec *changelog.Record, name string, held map[string]bool, have map[string]string) Copied {
	origin := OriginPrefix + rec.ID
	c := Copied{ID: rec.ID, Kind: rec.Kind, Title: rec.Title(), Origin: origin, Action: ActionAdd}
	if back, ok := strings.CutPrefix(rec.Origin, name+"/"); ok && held[back] {
		c.Action, c.Copy, c.Origin = ActionPresent, back, rec.Origin
	} else if copied, ok := have[origin]; ok {
		c.Action, c.Copy = ActionPresent, copied
	}
	return c
}

// withoutCode takes out of cp the code it cites (promoted with
// --keep-paths): another repository's, which this project's readers would
// call gone.
func withoutCode(cp *changelog.Record) *changelog.Record {
	cp.Anchors = nil
	if ev := cp.Evidence; ev != nil {
		ev.Files, ev.Commit, ev.Branch = nil, "", ""
		if ev.Issue == "" {
			cp.Evidence = nil
		}
	}
	return cp
}
