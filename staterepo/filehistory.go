package staterepo

import (
	"context"
	"fmt"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
)

// FileChange is what one commit did to one file: the blob it left at the
// path, zero when it deleted the file.
type FileChange struct {
	Commit Hash
	Path   string
	Blob   Hash
	// Trailer is the value of the trailer asked for in the commit's
	// message ("" when it has none): how a writer tells its own commits
	// from a person's.
	Trailer string
}

// FileHistory lists, newest first, what the commits reachable from tip did
// to the files under dir: every commit that changed one (merges aside: a
// merge's files are each a side's, or its resolution's), with the value of
// the trailer key in its message. It is one git log.
func (r *Repo) FileHistory(ctx context.Context, tip Hash, dir, key string) ([]FileChange, error) {
	if strings.ContainsAny(key, ",:)% \n") || strings.HasPrefix(dir, "-") {
		return nil, fmt.Errorf("failed to read the history of %s: bad trailer key %q", dir, key)
	}
	out, err := r.git.Run(ctx, "log", "--full-history", "--no-merges", "--raw", "--no-abbrev", "--no-renames", "-z",
		"--format=%H %(trailers:key="+key+",valueonly,separator=%x2C)", tip.String(), "--", dir)
	if err != nil {
		return nil, fmt.Errorf("failed to read the history of %s: %w", dir, err)
	}
	return parseFileHistory(out)
}

// parseFileHistory reads git log -z --raw with a format of "%H <trailer>":
// each commit's line, then per file a ":<modes> <old> <new> <status>"
// field and its path, every field ended by a NUL.
func parseFileHistory(out string) ([]FileChange, error) {
	var changes []FileChange
	var commit Hash
	var trailer, meta string
	wantPath := false
	for _, field := range strings.Split(out, "\x00") {
		if wantPath {
			parts := strings.Fields(meta)
			if len(parts) < 5 {
				return nil, fmt.Errorf("failed to read git's history: %q is no change", meta)
			}
			blob := plumbing.NewHash(parts[3])
			if strings.HasPrefix(parts[4], "D") {
				blob = ZeroHash
			}
			changes = append(changes, FileChange{Commit: commit, Path: field, Blob: blob, Trailer: trailer})
			wantPath = false
			continue
		}
		field = strings.TrimLeft(field, "\n")
		switch {
		case field == "":
		case strings.HasPrefix(field, ":"):
			meta, wantPath = field, true
		default:
			h, rest, _ := strings.Cut(field, " ")
			parsed, ok := parseHash(h)
			if !ok {
				return nil, fmt.Errorf("failed to read git's history: %q is no commit", h)
			}
			commit, trailer = parsed, strings.TrimSpace(rest)
		}
	}
	return changes, nil
}
