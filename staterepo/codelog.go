package staterepo

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"
)

// LoggedCommit is one commit of the code repository's history: its hash,
// its author's time and its whole message.
type LoggedCommit struct {
	Hash    string
	Time    time.Time
	Message string
}

// Log lists the commits HEAD reaches, newest first, with their messages:
// one git log. A repository without commits has none.
func (c *CodeRepo) Log(ctx context.Context) ([]LoggedCommit, error) {
	if _, err := c.git.Run(ctx, "rev-parse", "--verify", "--quiet", "HEAD"); err != nil {
		var ge *GitError
		if errors.As(err, &ge) {
			return nil, nil // no commits yet
		}
		return nil, fmt.Errorf("failed to read HEAD of %s: %w", c.Dir, err)
	}
	out, err := c.git.RunInput(ctx, nil, "log", "-z", "--format=%H%n%aI%n%B", "HEAD")
	if err != nil {
		return nil, fmt.Errorf("failed to read the history of %s: %w", c.Dir, err)
	}
	return parseLog(string(out)), nil
}

// parseLog reads git log -z --format=%H%n%aI%n%B: each commit's hash, time
// and message, NUL-terminated. A commit it cannot read is left out.
func parseLog(out string) []LoggedCommit {
	var commits []LoggedCommit
	for _, entry := range strings.Split(out, "\x00") {
		entry = strings.TrimLeft(entry, "\n")
		hash, rest, ok := strings.Cut(entry, "\n")
		if !ok || !isHexString(hash) {
			continue
		}
		stamp, msg, _ := strings.Cut(rest, "\n")
		at, err := time.Parse(time.RFC3339, stamp)
		if err != nil {
			continue
		}
		commits = append(commits, LoggedCommit{Hash: hash, Time: at.UTC(), Message: strings.TrimRight(msg, "\n")})
	}
	return commits
}

func isHexString(s string) bool {
	if len(s) < 40 {
		return false
	}
	for _, c := range s {
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}

// Added is when each file under dir (slash-separated, from the root) was
// first added in the history HEAD reaches, by its author's time: one git
// log. A file added twice (deleted, then added again) has its first.
func (c *CodeRepo) Added(ctx context.Context, dir string) (map[string]time.Time, error) {
	out, err := c.git.RunInput(ctx, nil, "log", "-z", "--diff-filter=A", "--format=%x01%aI", "--name-only", "HEAD", "--", dir)
	if err != nil {
		return nil, fmt.Errorf("failed to read the history of %s: %w", dir, err)
	}
	added := map[string]time.Time{}
	var at time.Time
	for _, tok := range strings.Split(string(out), "\x00") {
		tok = strings.TrimLeft(tok, "\n")
		// A commit's time follows \x01, which no path holds.
		if stamp, ok := strings.CutPrefix(tok, "\x01"); ok {
			at, _ = time.Parse(time.RFC3339, stamp)
			continue
		}
		if tok != "" && !at.IsZero() {
			added[tok] = at.UTC() // newest first: the last is the first added
		}
	}
	return added, nil
}
