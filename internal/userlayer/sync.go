package userlayer

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"sort"
	"strings"

	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/planqerr"
	"github.com/planq-dev/planq/project"
	"github.com/planq-dev/planq/readmodel"
	"github.com/planq-dev/planq/team"
)

// SetRemote makes url the user layer's remote: $PLANQ_HOME/user.yaml, and
// the layer's state repository when it exists. A URL with a password or
// token in it, or one git could not fetch from, is refused before anything
// is written.
func SetRemote(ctx context.Context, home, url string) error {
	if err := project.CheckUserRemoteCredential(url, "planq user remote %s"); err != nil {
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
	return team.SetRemoteURL(ctx, l.Repo, team.DefaultRemote, url)
}

// CheckRemote tells whether the user layer has a remote that sync can use,
// from $PLANQ_HOME/user.yaml alone: sync checks it before it makes the
// layer, so a sync that cannot run makes nothing.
func CheckRemote(home string) error {
	uc, err := project.LoadUserConfig(home)
	if err != nil {
		return err
	}
	return checkRemote(home, uc.Remote)
}

func checkRemote(home, url string) error {
	if url == "" {
		return planqerr.New(planqerr.NotFound, "the user layer", "has no remote to sync with").
			WithHint("set one, a repository of yours that git can reach: planq user remote URL")
	}
	return project.CheckStoredRemote("the user layer's remote", url, filepath.Join(home, project.UserConfigFile),
		"set a repository of yours that git can reach: planq user remote URL")
}

// remote is the layer's remote as user.yaml names it, registered in its
// state repository as origin (user.yaml is what the person edits: it
// wins over what the repository remembered).
func (l *Layer) remote(ctx context.Context) error {
	url := l.Project.Config.Remote
	if err := checkRemote(l.Project.Home, url); err != nil {
		return err
	}
	return team.SetRemoteURL(ctx, l.Repo, team.DefaultRemote, url)
}

// Push publishes the user layer to its remote (team.Push: a lease on what
// the remote last had, a merge first when another machine pushed since, a
// credential scan before anything is sent).
// The layer keeps no credential: --allow-secret is refused, and a record
// whose writer allowed one (written before the layer refused them, or
// pulled) stops the push as any other, with the user layer's way out.
func (l *Layer) Push(ctx context.Context, allowSecret bool) (team.PushResult, error) {
	if err := CheckAllowSecret(allowSecret); err != nil {
		return team.PushResult{Remote: team.DefaultRemote, Agents: []string{}}, err
	}
	if err := l.remote(ctx); err != nil {
		return team.PushResult{Remote: team.DefaultRemote, Agents: []string{}}, err
	}
	res, err := team.Push(ctx, l.Store, team.DefaultRemote, team.PushOptions{KeepsNoCredential: true})
	return res, l.rehintCredential(rehint(err))
}

// rehintCredential gives push's refusal of a record that looks like a
// credential the user layer's way out: team's hint names a project's
// retraction and --allow-secret, which the layer has no use for.
func (l *Layer) rehintCredential(err error) error {
	var pe *planqerr.Error
	if !errors.As(err, &pe) || pe.Kind != planqerr.Refused || pe.Err == nil || !strings.Contains(pe.Err.Error(), "looks like a credential") {
		return err
	}
	path, _, _ := strings.Cut(pe.Subject, ":")
	id := strings.TrimSuffix(filepath.Base(path), ".md")
	if !changelog.ValidID(id) {
		return err
	}
	pe.Hint = fmt.Sprintf("%s: retract it ('planq retract %s --scope user'), or write it again without the credential ('planq edit %s --scope user'), and push again", NoCredential, id, id)
	return pe
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
// or no planq state, and its failure to reach the remote, the user
// layer's way out: the hints of team name a project's commands.
func rehint(err error) error {
	var pe *planqerr.Error
	if !errors.As(err, &pe) || pe.Subject != "remote "+team.DefaultRemote {
		return err
	}
	switch {
	case pe.Kind == planqerr.Refused &&
		(strings.Contains(pe.Err.Error(), "holds the global of project") || strings.Contains(pe.Err.Error(), "is not planq state")):
		pe.Subject = "the user layer's remote"
		pe.Hint = "give the user layer a repository of its own, not a project's: planq user remote URL"
	case pe.Kind == planqerr.Failure && strings.Contains(pe.Err.Error(), "cannot be reached"):
		pe.Subject = "the user layer's remote"
		pe.Hint = "check the URL ('planq user remote' prints it) and your network, ssh keys or credentials"
	}
	return err
}

// List is the user layer's current learnings and decisions, oldest first,
// and the problems of the files it could not read.
func List(h *readmodel.Handle) ([]*changelog.Record, []string, error) {
	set, err := h.Records.Branch(project.GlobalBranch, changelog.KindLearning, changelog.KindDecision)
	if err != nil {
		return nil, nil, err
	}
	recs := set.Current()
	sort.SliceStable(recs, func(i, j int) bool { return recs[i].Timestamp.Before(recs[j].Timestamp) })
	return recs, set.ProblemLines(), nil
}
