package cli

import (
	"context"
	"os/exec"
	"runtime"

	"github.com/spf13/cobra"
)

type uiOptions struct {
	port      string
	noBrowser bool
}

func newUICmd(env *Env) *cobra.Command {
	var opts uiOptions
	cmd := &cobra.Command{
		Use:   "ui",
		Short: "Serve the local review page: proposals, notes, promotion, convergence",
		Long: `Serve the review page on 127.0.0.1, on a free port, until interrupted (Ctrl-C).
It prints its URL, holding this run's token, on stdout, and opens it in a browser
when run in an interactive terminal (never with --no-browser).

The page shows the curation proposals waiting for review, each file's diff in a
tab, with Apply, Edit & Apply and Dismiss; the notes log, filtered by agent,
workspace, type, state and time; what each agent has that awaits promotion, with
a Promote button, and what is disputed; the knowledge base: its index by topic,
an article rendered with its sources, Edit (saved to global as you, as 'planq kb
edit' does) and, for a disputed article, a button that keeps each side ('planq
kb resolve'); and each domain's convergence chart.

Each card shows the text of the notes its proposal uses. After Apply or Dismiss
the cards follow the server's answer: a sibling proposal on the same file turns
stale at once. A broken proposal (its file became a symbolic link, say) is shown
with why, beside the others, and can be dismissed.

Its JSON API does the same, under /api/learnings/<project>/: GET proposals,
GET proposals/<id>, POST proposals/<id>/apply (optional body {"files":
{"<path>": "<content>"}, "allow_removals": false}; the answer {"proposal",
"commit","branch","files","additions","removals","pending","proposals"}, where
"proposals" are the proposals the apply changed, in their state now),
POST proposals/<id>/dismiss ({"proposal","version","state","pending",
"proposals"}), GET entries?state=&agent=&type=&workspace=&since=&until=&limit=,
GET promotion, POST agents/<name>/promote, GET status, GET articles/<slug>,
POST articles/<slug>/edit ({"text","blob"}: the article and the version of it
edited; another version than global's is refused), POST articles/<slug>/resolve
({"keep"}). A refusal answers
{"error","hint"}, and "proposals" when it found one changed. Every request needs
the token (?token=, or the cookie the page sets from it: else 401) and must come
from the page's own origin (an Origin or, for a POST without one, a Referer of
another origin: else 403).`,
		Example: "  planq ui\n  planq ui --no-browser --port 8765",
		Args:    exactArgs(0, "no arguments"),
		RunE:    func(cmd *cobra.Command, _ []string) error { return runUI(cmd.Context(), env, opts) },
	}
	cmd.Flags().StringVar(&opts.port, "port", "0", "the `PORT` to listen on (0: a free one)")
	cmd.Flags().BoolVar(&opts.noBrowser, "no-browser", false, "never open a browser")
	handedOff(env, cmd)
	return cmd
}

func runUI(ctx context.Context, env *Env, opts uiOptions) error {
	svc := env.service()
	return env.servers.Review(ctx, svc, svc.Writer(ctx), opts.port, func(url string) {
		env.printf("%s\n", url)
		env.Log.Info("serving the review page until interrupted (Ctrl-C)")
		if !opts.noBrowser && isTerminal(env.raw()) {
			openBrowser(env, url)
		}
	})
}

// openBrowser opens url in the desktop's browser, and says so when it cannot.
func openBrowser(env *Env, url string) {
	name := "xdg-open"
	switch runtime.GOOS {
	case "darwin":
		name = "open"
	case "windows":
		name = "explorer"
	}
	if err := exec.Command(name, url).Start(); err != nil {
		env.Log.Warn("could not open a browser; open the URL above", "err", err)
	}
}
