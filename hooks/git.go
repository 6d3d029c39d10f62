package hooks

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/planq-dev/planq/internal/atomicfile"

	"github.com/planq-dev/planq/planqerr"
)

// GitHooks are the git hooks planq knows how to install.
var GitHooks = []string{"post-checkout", "post-commit"}

// marker identifies a hook script planq wrote.
const marker = "# planq-managed git hook"

// chainedSuffix names the user's own hook, moved aside and run first.
const chainedSuffix = ".planq-chained"

// script is the hook planq installs: the user's hook first (its exit status
// is the hook's), then planq, whose failure never fails the git command.
func script(name, planqPath string) string {
	return fmt.Sprintf(`#!/bin/sh
%s: %s. 'planq githook remove %s' restores what was here before.
status=0
chained="$(dirname "$0")/%s%s"
if [ -x "$chained" ]; then "$chained" "$@" || status=$?; fi
planq_bin='%s'
[ -x "$planq_bin" ] || planq_bin=planq
if command -v "$planq_bin" >/dev/null 2>&1; then "$planq_bin" githook run %s "$@" || true; fi
exit $status
`, marker, name, name, name, chainedSuffix, strings.ReplaceAll(planqPath, "'", ""), name)
}

// InstallResult says what InstallGitHook did.
type InstallResult struct {
	Path string
	// Chained is the user's hook planq moved aside and now runs first.
	Chained string
	// Changed is false when planq's hook was already there, as it is.
	Changed bool
}

// InstallGitHook installs hook name into hooksDir. A hook the user already
// has is never overwritten: it is renamed to <name>.planq-chained and run
// first by planq's. Installing twice changes nothing.
func InstallGitHook(hooksDir, name, planqPath string) (InstallResult, error) {
	if err := checkName(name); err != nil {
		return InstallResult{}, err
	}
	path := filepath.Join(hooksDir, name)
	res := InstallResult{Path: path}
	want := script(name, planqPath)
	current, err := os.ReadFile(path)
	switch {
	case err == nil && strings.Contains(string(current), marker):
		if string(current) == want {
			return res, nil
		}
	case err == nil:
		if info, lerr := os.Lstat(path); lerr == nil && info.Mode()&os.ModeSymlink != 0 {
			return res, planqerr.New(planqerr.Refused, path, "is a symbolic link; planq leaves it alone").
				WithHint("add 'planq githook run %s \"$@\"' to the hook it points to", name)
		}
		chained := path + chainedSuffix
		if _, err := os.Stat(chained); err == nil {
			return res, planqerr.New(planqerr.Exists, chained, "exists already; planq will not overwrite it").
				WithHint("move it away, then install again")
		}
		if err := os.Rename(path, chained); err != nil {
			return res, fmt.Errorf("failed to move %s aside: %w", path, err)
		}
		res.Chained = chained
	case !errors.Is(err, os.ErrNotExist):
		return res, fmt.Errorf("failed to read %s: %w", path, err)
	}
	if err := os.MkdirAll(hooksDir, 0o755); err != nil {
		return res, fmt.Errorf("failed to create %s: %w", hooksDir, err)
	}
	if err := atomicfile.WriteFile(path, []byte(want), 0o755); err != nil {
		return res, fmt.Errorf("failed to write %s: %w", path, err)
	}
	res.Changed = true
	return res, nil
}

// RemoveGitHook removes planq's hook and puts back the user's, if planq had
// moved one aside. It reports whether anything changed.
func RemoveGitHook(hooksDir, name string) (bool, error) {
	if err := checkName(name); err != nil {
		return false, err
	}
	path := filepath.Join(hooksDir, name)
	current, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) || (err == nil && !strings.Contains(string(current), marker)) {
		return false, nil // not ours: nothing to remove
	}
	if err != nil {
		return false, fmt.Errorf("failed to read %s: %w", path, err)
	}
	chained := path + chainedSuffix
	if _, err := os.Stat(chained); err == nil {
		if err := os.Rename(chained, path); err != nil {
			return false, fmt.Errorf("failed to restore %s: %w", chained, err)
		}
		return true, nil
	}
	if err := os.Remove(path); err != nil {
		return false, fmt.Errorf("failed to remove %s: %w", path, err)
	}
	return true, nil
}

func checkName(name string) error {
	for _, h := range GitHooks {
		if h == name {
			return nil
		}
	}
	return planqerr.New(planqerr.Invalid, "hook "+`"`+name+`"`, "is not a hook planq installs").
		WithHint("one of: %s", strings.Join(GitHooks, ", "))
}
