package staterepo

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/storer"

	"github.com/planq-dev/planq/internal/plural"
	"github.com/planq-dev/planq/planqerr"
	"github.com/planq-dev/planq/project"
)

// ErrRemoteMoved means a push was refused because the remote ref is not
// where we last saw it: a teammate pushed first. Pull and try again.
var ErrRemoteMoved = errors.New("remote moved")

// refusedTransports are git's transports that reach no repository, which
// no fetch or push of planq's may use, whatever a hand-edited config says:
// fd talks over the file descriptors git inherits (a push to fd::0 waits
// on stdin for ever), ext runs the command its URL names. planq refuses
// them in every URL it is given (project.TransportProblem); this is for
// the ones written into a config by hand.
var refusedTransports = []string{"fd", "ext"}

func refusedTransport(name string) bool {
	return slices.Contains(refusedTransports, strings.ToLower(name))
}

// transport is args of a git command that reaches a remote, after the
// configuration that refuses refusedTransports: given on the command line,
// it wins over every config file.
func transport(args ...string) []string {
	out := make([]string, 0, 2*len(refusedTransports)+len(args))
	for _, t := range refusedTransports {
		out = append(out, "-c", "protocol."+t+".allow=never")
	}
	return append(out, args...)
}

// RemoteURL returns the URL of a configured remote, "" when there is none.
func (r *Repo) RemoteURL(ctx context.Context, name string) (string, error) {
	if url, ok := r.ownRemoteURL(name); ok {
		return url, nil
	}
	out, err := r.git.Run(ctx, "config", "--get", "remote."+name+".url")
	if err != nil {
		var ge *GitError
		if errors.As(err, &ge) {
			return "", nil // exit 1: not set
		}
		return "", err
	}
	return out, nil
}

// ownRemoteURL reads remote name's URL from the repository's own config,
// where SetRemote writes it, in this process: a pull or push spares a git
// process. ok is false when git must read it: a config that does not
// parse, or includes others.
func (r *Repo) ownRemoteURL(name string) (url string, ok bool) {
	cfg, err := r.st.Config()
	if err != nil || cfg.Raw.HasSection("include") || cfg.Raw.HasSection("includeIf") {
		return "", false
	}
	for _, sub := range cfg.Raw.Section("remote").Subsections {
		if urls := sub.Options.GetAll("url"); sub.IsName(name) && len(urls) > 0 {
			url = urls[len(urls)-1] // git's last value wins
		}
	}
	return url, true
}

// SetRemote records a remote's URL. planq gives remotes no default fetch
// refspec: it names exactly what it fetches and pushes.
func (r *Repo) SetRemote(ctx context.Context, name, url string) error {
	if _, err := r.git.Run(ctx, "config", "remote."+name+".url", url); err != nil {
		return fmt.Errorf("failed to set remote %s: %w", name, err)
	}
	return nil
}

// Remotes lists configured remotes and their URLs.
func (r *Repo) Remotes(ctx context.Context) (map[string]string, error) {
	out, err := r.git.Run(ctx, "config", "--get-regexp", `^remote\..*\.url$`)
	if err != nil {
		var ge *GitError
		if errors.As(err, &ge) {
			return map[string]string{}, nil
		}
		return nil, err
	}
	remotes := map[string]string{}
	for _, line := range strings.Split(out, "\n") {
		key, url, ok := strings.Cut(line, " ")
		if !ok {
			continue
		}
		name := strings.TrimSuffix(strings.TrimPrefix(key, "remote."), ".url")
		remotes[name] = url
	}
	return remotes, nil
}

// FetchResult says which refspecs a fetch could not apply because they
// were not fast-forwards.
type FetchResult struct {
	Rejected []string
}

// Fetch runs git fetch from remote with refspecs. Refspecs without '+' only
// fast-forward; those git refuses are reported, not failed. Transport goes
// through the git binary, so the user's ssh config and credential helpers
// apply.
func (r *Repo) Fetch(ctx context.Context, remote string, refspecs ...string) (FetchResult, error) {
	args := append([]string{"fetch", "--no-tags", "--no-write-fetch-head", "--no-progress", remote}, refspecs...)
	_, err := r.git.Run(ctx, transport(args...)...)
	if err == nil {
		return FetchResult{}, nil
	}
	var ge *GitError
	// A ref the fetch could not update (git's lock file for it is there)
	// is no rejection to report and go on from: the pull would merge what
	// it fetched before, and stall there, saying nothing.
	if errors.As(err, &ge) && strings.Contains(ge.Stderr, "unable to update local ref") {
		if m := lockFileRE().FindStringSubmatch(ge.Stderr); m != nil {
			return FetchResult{}, planqerr.New(planqerr.Busy, remote, "fetched, but %s", (&RefLockedError{Lock: m[1]}).Error()).
				WithHint("if no git process is running (a crashed one leaves its lock behind), remove %s ('planq doctor --fix' removes it once it is 2 minutes old)", m[1])
		}
		return FetchResult{}, fmt.Errorf("failed to update the refs fetched from %s: %w", remote, err)
	}
	if errors.As(err, &ge) && strings.Contains(ge.Stderr, "[rejected]") && !strings.Contains(ge.Stderr, "fatal:") {
		var res FetchResult
		for _, line := range strings.Split(ge.Stderr, "\n") {
			if strings.Contains(line, "[rejected]") {
				res.Rejected = append(res.Rejected, strings.TrimSpace(line))
			}
		}
		return res, nil
	}
	if errors.As(err, &ge) && strings.Contains(ge.Stderr, "couldn't find remote ref") {
		return FetchResult{}, planqerr.New(planqerr.NotFound, remote, "has no planq state yet")
	}
	return FetchResult{}, unreachable(remote, err)
}

// Push pushes refspec to remote, only if the remote ref is still at lease
// (zero: it must not exist). A push turned down because the remote ref moved
// (a stale lease, a concurrent push holding its lock) returns ErrRemoteMoved;
// one the server refuses by its own rules (a hook, a protected ref) is a
// failure that says what the server said, for no retry would change it.
func (r *Repo) Push(ctx context.Context, remote, refspec, remoteRef string, lease Hash) error {
	expect := lease.String()
	if lease.IsZero() {
		expect = ""
	}
	out, err := r.git.Run(ctx, transport("push", "--porcelain", "--no-verify", "--force-with-lease="+remoteRef+":"+expect, remote, refspec)...)
	if err == nil {
		return nil
	}
	if err := declined(remote, out, err); err != nil {
		return err
	}
	if refused(err) {
		return fmt.Errorf("failed to push to %s: %w", remote, ErrRemoteMoved)
	}
	return unreachable(remote, err)
}

// raceReasons are the reasons a server gives for a ref it could not update
// because another push held or moved it meanwhile: a race, that pulling and
// pushing again settles. Any other reason of a "[remote rejected]" is the
// server's own refusal (a hook, a protected ref, a rule), which no retry
// changes.
var raceReasons = []string{"failed to update ref", "failed to lock", "cannot lock ref", "incorrect old value"}

// declined returns the server's refusal of a push, read from git's porcelain
// status lines ("!\t<src>:<dst>\t[remote rejected] (<reason>)") with what the
// server said on the way ("remote: " lines); nil when the push was not
// turned down by the server, or was turned down by a race.
func declined(remote, out string, err error) error {
	var ref, reason string
	for _, line := range strings.Split(out, "\n") {
		fields := strings.SplitN(line, "\t", 3)
		if len(fields) != 3 || fields[0] != "!" || !strings.HasPrefix(fields[2], "[remote rejected]") {
			continue
		}
		why := strings.TrimSpace(strings.TrimPrefix(fields[2], "[remote rejected]"))
		why = strings.TrimSuffix(strings.TrimPrefix(why, "("), ")")
		race := false
		for _, s := range raceReasons {
			race = race || strings.Contains(why, s)
		}
		if !race {
			_, dst, _ := strings.Cut(fields[1], ":")
			ref, reason = dst, why
			break
		}
	}
	if ref == "" {
		return nil
	}
	var said []string
	var ge *GitError
	if errors.As(err, &ge) {
		for _, line := range strings.Split(ge.Stderr, "\n") {
			if strings.HasPrefix(line, "remote:") {
				said = append(said, strings.TrimRight(printable(line), " \t"))
			}
		}
	}
	const maxSaid = 20 // a chatty hook does not bury the error
	if len(said) > maxSaid {
		said = append(said[:maxSaid], "("+plural.Of(len(said)-maxSaid, "more line")+")")
	}
	msg := fmt.Sprintf("the server refused the push to %s (%s)", ref, printable(reason))
	if len(said) > 0 {
		msg += "; it said:\n  " + strings.Join(said, "\n  ")
	}
	return planqerr.New(planqerr.Failure, "remote "+remote, "%s", msg).
		WithHint("trying again will not help: the server's hooks or protection rules turn this push away; ask whoever runs %s to let you push refs/planq/*", remote)
}

// escapeSequence matches the terminal sequences a server's message may
// carry: CSI (colours, git's own "erase to end of line") and OSC (titles,
// links).
var escapeSequence = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)`)
})

// printable drops the escape sequences and control characters a server's
// message may carry, which would otherwise reach the terminal.
func printable(s string) string {
	return strings.Map(func(r rune) rune {
		if r < 0x20 && r != '\t' || r == 0x7f {
			return -1
		}
		return r
	}, escapeSequence().ReplaceAllString(s, ""))
}

// refused reports whether a failed push reached the remote and was turned
// down for a ref (stale lease, not a fast-forward, or the remote's ref lock
// taken by a concurrent push) rather than failing to connect.
func refused(err error) bool {
	var ge *GitError
	if !errors.As(err, &ge) {
		return false
	}
	for _, s := range []string{"stale info", "[rejected]", "[remote rejected]", "fetch first", "failed to push some refs"} {
		if strings.Contains(ge.Stderr, s) {
			return !strings.Contains(ge.Stderr, "fatal:")
		}
	}
	return false
}

// unreachable explains a fetch or push that failed before the remote could
// answer for a ref, with all git said: its last line alone ("...and the
// repository exists.") often suggests the opposite of the truth.
func unreachable(remote string, err error) error {
	said := err.Error()
	var ge *GitError
	if errors.As(err, &ge) && strings.TrimSpace(ge.Stderr) != "" {
		said = strings.TrimSpace(ge.Stderr)
	}
	return planqerr.New(planqerr.Failure, "remote "+remote, "cannot be reached; git said:\n  %s", strings.ReplaceAll(said, "\n", "\n  ")).
		WithHint("check the URL ('planq state remote list') and your network, ssh keys or credentials")
}

// RefUpdate is one change in an atomic ref transaction. A zero New deletes
// the ref; a zero Old requires that it does not exist yet.
type RefUpdate struct {
	Ref string
	New Hash
	Old Hash
}

// UpdateRefs applies updates atomically (`git update-ref --stdin`): all of
// them, each only if its ref is still at Old, or none. A lost race returns
// ErrRefMoved. Global is not among the refs it moves: SwapGlobal does that.
func (r *Repo) UpdateRefs(ctx context.Context, reason string, updates []RefUpdate) error {
	for _, u := range updates {
		if u.Ref == globalRef {
			return fmt.Errorf("failed to update refs: %s moves through SwapGlobal, whose caller hears of it", globalRef)
		}
	}
	return r.updateRefs(ctx, reason, updates)
}

// globalRef is the team's memory, which moves through SwapGlobal alone.
const globalRef = "refs/heads/" + project.GlobalBranch

// SwapGlobal moves global from one commit to another, provided it is still
// at from (ErrRefMoved otherwise: read again and retry). Its one caller is
// the writer of global (agent.Store.MoveGlobal), which tells the project
// service that global moved: what follows every change of the team's
// memory (the knowledge base brought in step) is no step a caller of its
// own can forget.
func (r *Repo) SwapGlobal(ctx context.Context, reason string, from, to Hash) error {
	return r.updateRefs(ctx, reason, []RefUpdate{{Ref: globalRef, New: to, Old: from}})
}

func (r *Repo) updateRefs(ctx context.Context, reason string, updates []RefUpdate) error {
	var in strings.Builder
	in.WriteString("start\n")
	for _, u := range updates {
		switch {
		case u.New.IsZero():
			fmt.Fprintf(&in, "delete %s %s\n", u.Ref, u.Old)
		case u.Old.IsZero():
			fmt.Fprintf(&in, "create %s %s\n", u.Ref, u.New)
		default:
			fmt.Fprintf(&in, "update %s %s %s\n", u.Ref, u.New, u.Old)
		}
	}
	in.WriteString("prepare\ncommit\n")
	_, err := r.git.RunInput(ctx, strings.NewReader(in.String()), "update-ref", "-m", reason, "--stdin")
	if err != nil {
		if locked := lockedBy(err); locked != nil {
			return fmt.Errorf("failed to update refs: %w", locked)
		}
		if refMoved(err) || stderrContains(err, "already exists") {
			return fmt.Errorf("failed to update refs: %w", ErrRefMoved)
		}
		return fmt.Errorf("failed to update refs: %w", err)
	}
	return nil
}

// MergedBranches lists branches matching pattern that are ancestors of
// target, in one git process.
func (r *Repo) MergedBranches(ctx context.Context, target, pattern string) (map[string]Hash, error) {
	out, err := r.git.Run(ctx, "for-each-ref", "--merged="+target, "--format=%(objectname) %(refname:short)", pattern)
	if err != nil {
		return nil, fmt.Errorf("failed to list merged branches: %w", err)
	}
	merged := map[string]Hash{}
	for _, line := range strings.Split(out, "\n") {
		h, name, ok := strings.Cut(line, " ")
		if ok {
			merged[name] = NewHash(h)
		}
	}
	return merged, nil
}

// Maintain runs git's housekeeping incrementally, each task only when its
// threshold says it is due, so a repository with nothing to collect costs a
// few cheap checks: the commit-graph (which keeps merge bases and ancestry
// quick) takes new commits, loose objects go into a new pack, small packs
// are rolled up. A full gc runs only past git's own gc.auto thresholds; it
// never prunes unreachable objects younger than gc.pruneExpire (two weeks,
// set at init), so an agent writing right now never loses an object it just
// made.
func (r *Repo) Maintain(ctx context.Context) error {
	if _, err := r.git.Run(ctx, "maintenance", "run", "--auto", "--quiet",
		"--task=commit-graph", "--task=loose-objects", "--task=incremental-repack"); err != nil {
		return fmt.Errorf("failed to run git maintenance: %w", err)
	}
	if _, err := r.git.Run(ctx, "gc", "--auto", "--quiet"); err != nil {
		return fmt.Errorf("failed to run git gc: %w", err)
	}
	return nil
}

// PushForce pushes refspecs that this repository alone owns (they carry '+').
func (r *Repo) PushForce(ctx context.Context, remote string, refspecs ...string) error {
	args := append([]string{"push", "--porcelain", "--no-verify", remote}, refspecs...)
	if out, err := r.git.Run(ctx, transport(args...)...); err != nil {
		if err := declined(remote, out, err); err != nil {
			return err
		}
		return unreachable(remote, err)
	}
	return nil
}

// RefTip returns where a full ref name points.
func (r *Repo) RefTip(ref string) (Hash, error) {
	h, err := storer.ResolveReference(r.st, plumbing.ReferenceName(ref))
	if errors.Is(err, plumbing.ErrReferenceNotFound) {
		return ZeroHash, planqerr.New(planqerr.NotFound, ref, "does not exist")
	}
	if err != nil {
		return ZeroHash, fmt.Errorf("failed to read %s: %w", ref, err)
	}
	return h.Hash(), nil
}

// SetRef points ref at h unconditionally: for refs planq alone writes, such
// as the record of what a remote had.
func (r *Repo) SetRef(ctx context.Context, ref string, h Hash) error {
	if _, err := r.git.Run(ctx, "update-ref", ref, h.String()); err != nil {
		return fmt.Errorf("failed to set %s: %w", ref, err)
	}
	return nil
}

// ConfigValue reads one key of the repository's git config ("" when unset).
func (r *Repo) ConfigValue(ctx context.Context, key string) (string, error) {
	out, err := r.git.Run(ctx, "config", "--get", key)
	var ge *GitError
	if errors.As(err, &ge) {
		return "", nil
	}
	return out, err
}

// SetConfigValue writes one key of the repository's git config.
func (r *Repo) SetConfigValue(ctx context.Context, key, value string) error {
	if _, err := r.git.Run(ctx, "config", key, value); err != nil {
		return fmt.Errorf("failed to set %s: %w", key, err)
	}
	return nil
}

// UserName is the name planq commits with.
func (r *Repo) UserName() string { return r.signature().Name }
