package userlayer

import (
	"context"
	"errors"
	"sort"
	"strings"

	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/planqerr"
	"github.com/planq-dev/planq/project"
	"github.com/planq-dev/planq/team"
)

// SetRemote makes url the user layer's remote: $PLANQ_HOME/user.yaml, and
// the layer's state repository when it exists. A URL with a password or
// token in it, or one git could not fetch from, is refused before anything
// is written.
func SetRemote(ctx context.Context, home, url string) error {
	if err := project.CheckRemoteCredential(url, "planq user remote %s"); err != nil {
		return err
	}
	if err := project.CheckRemoteURL("", url); err != nil {
		return err
	}
	uc, err := project.LoadUserConfig(home)
	if err != nil {
		return err
	}
	uc.Remote = url
	if err := project.SaveUserConfig(home, uc); err != nil {
		return err
	}
	l, ok, err := OpenExisting(ctx, home)
	if err != nil || !ok {
		return err
	}
	defer l.Close()
	return l.Repo.SetRemote(ctx, team.DefaultRemote, url)
}

// remote is the layer's remote as user.yaml names it, registered in its
// state repository as origin (user.yaml is what the person edits: it
// wins over what the repository remembered).
func (l *Layer) remote(ctx context.Context) error {
	url := l.Project.Config.Remote
	if url == "" {
		return planqerr.New(planqerr.NotFound, "the user layer", "has no remote to sync with").
			WithHint("set one, a repository of yours that git can reach: planq user remote URL")
	}
	if have, err := l.Repo.RemoteURL(ctx, team.DefaultRemote); err != nil || have == url {
		return err
	}
	return l.Repo.SetRemote(ctx, team.DefaultRemote, url)
}

// Push publishes the user layer to its remote (team.Push: a lease on what
// the remote last had, a merge first when another machine pushed since, a
// credential scan before anything is sent).
func (l *Layer) Push(ctx context.Context, allowSecret bool) (team.PushResult, error) {
	if err := l.remote(ctx); err != nil {
		return team.PushResult{Remote: team.DefaultRemote, Agents: []string{}}, err
	}
	res, err := team.Push(ctx, l.Store, team.DefaultRemote, team.PushOptions{AllowSecret: allowSecret})
	return res, rehint(err)
}

// Pull merges the user layer's remote into it (team.Pull).
func (l *Layer) Pull(ctx context.Context) (team.PullResult, error) {
	if err := l.remote(ctx); err != nil {
		return team.PullResult{Remote: team.DefaultRemote}, err
	}
	res, err := team.Pull(ctx, l.Store, team.DefaultRemote, team.PullOptions{})
	return res, rehint(err)
}

// rehint gives sync's refusal of a remote that holds a project's global,
// or no planq state, the user layer's way out: the hints of team name a
// project's commands.
func rehint(err error) error {
	var pe *planqerr.Error
	if errors.As(err, &pe) && pe.Kind == planqerr.Refused && pe.Subject == "remote "+team.DefaultRemote &&
		(strings.Contains(pe.Err.Error(), "holds the global of project") || strings.Contains(pe.Err.Error(), "is not planq state")) {
		pe.Subject = "the user layer's remote"
		pe.Hint = "give the user layer a repository of its own, not a project's: planq user remote URL"
	}
	return err
}

// List is the user layer's current learnings and decisions, oldest first,
// and the problems of the files it could not read.
func (l *Layer) List() ([]*changelog.Record, []string, error) {
	set, err := l.Records.Branch(project.GlobalBranch, changelog.KindLearning, changelog.KindDecision)
	if err != nil {
		return nil, nil, err
	}
	recs := set.Current()
	sort.SliceStable(recs, func(i, j int) bool { return recs[i].Timestamp.Before(recs[j].Timestamp) })
	return recs, set.ProblemLines(), nil
}
