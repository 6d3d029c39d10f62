package staterepo

import (
	"errors"
	"strings"
	"testing"

	"github.com/planq-dev/planq/planqerr"
)

// A server's own refusal is told apart from a push that lost a race: only
// the race is worth pulling and pushing again.
func TestDeclined(t *testing.T) {
	gitErr := &GitError{Args: []string{"push"}, Err: errors.New("exit status 1"),
		Stderr: "remote: no pushes on Fridays\x1b[K   \nremote: ask ops    \nerror: failed to push some refs to 'x'\n"}
	for _, c := range []struct {
		name, out string
		refusal   bool
	}{
		{"hook", "To x\n!\tglobal:refs/planq/global\t[remote rejected] (pre-receive hook declined)\nDone", true},
		{"rule", "To x\n!\tglobal:refs/planq/global\t[remote rejected] (push declined due to repository rule violations)\nDone", true},
		{"lock", "To x\n!\tglobal:refs/planq/global\t[remote rejected] (failed to update ref)\nDone", false},
		{"cannot lock", "To x\n!\tglobal:refs/planq/global\t[remote rejected] (cannot lock ref 'refs/planq/global': is at 1 but expected 2)\nDone", false},
		{"stale lease", "To x\n!\tglobal:refs/planq/global\t[rejected] (stale info)\nDone", false},
		{"pushed", "To x\n=\tglobal:refs/planq/global\t[up to date]\nDone", false},
	} {
		err := declined("origin", c.out, gitErr)
		if (err != nil) != c.refusal {
			t.Errorf("%s: declined = %v, want a refusal: %v", c.name, err, c.refusal)
			continue
		}
		if err == nil {
			continue
		}
		if !planqerr.Is(err, planqerr.Failure) {
			t.Errorf("%s: %v is no failure", c.name, err)
		}
		msg := err.Error()
		for _, want := range []string{"refs/planq/global", "remote: no pushes on Fridays\n", "remote: ask ops"} {
			if !strings.Contains(msg, want) {
				t.Errorf("%s: %q does not say %q", c.name, msg, want)
			}
		}
		if strings.Contains(msg, "\x1b") {
			t.Errorf("%s: %q carries the server's escape sequence", c.name, msg)
		}
	}
}
