package staterepo

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/planq-dev/planq/internal/testkit/testgit"
)

// TestFetchAndPushRefuseFdAndExt: a remote URL hand-written into the state
// repository's config, with the config also allowing the transport, still
// reaches neither git's fd transport (which would wait on planq's stdin for
// ever) nor ext (which would run the URL's command): every fetch and push
// fails at once.
func TestFetchAndPushRefuseFdAndExt(t *testing.T) {
	r := newRepo(t)
	ctx := context.Background()
	testgit.Run(t, r.Path, "config", "protocol.fd.allow", "always")
	testgit.Run(t, r.Path, "config", "protocol.ext.allow", "always")
	ran := filepath.Join(t.TempDir(), "ran")
	for _, url := range []string{"fd::0", "ext::sh -c touch% " + ran} {
		if err := r.SetRemote(ctx, "origin", url); err != nil {
			t.Fatal(err)
		}
		// Each call is bounded, so a hang fails the test soon.
		bounded := func(call func(ctx context.Context) error) func() error {
			return func() error {
				ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
				defer cancel()
				return call(ctx)
			}
		}
		calls := map[string]func() error{
			"fetch": bounded(func(ctx context.Context) error {
				_, err := r.Fetch(ctx, "origin", "+refs/planq/global:refs/planq/remotes/origin/global")
				return err
			}),
			"push": bounded(func(ctx context.Context) error {
				return r.Push(ctx, "origin", "refs/heads/global:refs/planq/global", "refs/planq/global", ZeroHash)
			}),
			"push force": bounded(func(ctx context.Context) error {
				return r.PushForce(ctx, "origin", "+refs/heads/global:refs/planq/x")
			}),
		}
		for name, call := range calls {
			start := time.Now()
			err := call()
			if err == nil || !strings.Contains(err.Error(), "not allowed") {
				t.Errorf("%s %s: %v, want git's refusal of the transport", name, url, err)
			}
			if d := time.Since(start); d > 3*time.Second {
				t.Errorf("%s %s took %s", name, url, d)
			}
		}
	}
	if _, err := os.Stat(ran); err == nil {
		t.Errorf("the ext URL's command ran")
	}
}

// TestGitEnvDropsFdAndExtFromAllowedProtocols: GIT_ALLOW_PROTOCOL overrides
// git's configuration, so a user's list that names fd or ext loses them;
// the rest of the list stays, and so does a list without them.
func TestGitEnvDropsFdAndExtFromAllowedProtocols(t *testing.T) {
	for in, want := range map[string]string{
		"GIT_ALLOW_PROTOCOL=fd:ext:https:file": "GIT_ALLOW_PROTOCOL=https:file",
		"GIT_ALLOW_PROTOCOL=ssh:FD:Ext":        "GIT_ALLOW_PROTOCOL=ssh",
		"GIT_ALLOW_PROTOCOL=ssh:https":         "GIT_ALLOW_PROTOCOL=ssh:https",
		"GIT_ALLOW_PROTOCOL=ext":               "GIT_ALLOW_PROTOCOL=",
	} {
		env := envFor([]string{"PATH=/bin", in})
		if !slices.Contains(env, want) || !slices.Contains(env, "PATH=/bin") || !slices.Contains(env, "GIT_TERMINAL_PROMPT=0") {
			t.Errorf("envFor(%s) = %v, want %s", in, env, want)
		}
	}
}

// TestSubcommandSkipsConfig: a git command stopped by its context is named
// by its subcommand, not by the -c that transport puts first.
func TestSubcommandSkipsConfig(t *testing.T) {
	if got := subcommand(transport("push", "origin")); got != "push" {
		t.Errorf("subcommand = %q, want push", got)
	}
	if got := subcommand([]string{"fetch"}); got != "fetch" {
		t.Errorf("subcommand = %q, want fetch", got)
	}
}
