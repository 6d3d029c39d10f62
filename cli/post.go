package cli

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/planq-dev/planq/session"
)

// maxPostRequest bounds what 'planq-server post' reads on stdin: a batch
// of texts an endpoint is sent, as JSON.
const maxPostRequest = 64 << 20

// newPostCmd is 'planq-server post', hidden: planq links no HTTP client,
// whose initialisation every start would pay, and reaches an embeddings
// endpoint through it. It reads session.PostRequests on stdin, one JSON
// line each, makes each, and writes what came, a session.PostAnswer, on a
// line of stdout, until stdin ends: one planq-server serves a planq's every
// post.
func newPostCmd(env *Env) *cobra.Command {
	return &cobra.Command{
		Use:    "post",
		Short:  "Make HTTP posts for planq (planq-server)",
		Hidden: true,
		Args:   exactArgs(0, "nothing: the posts come on stdin"),
		RunE: func(cmd *cobra.Command, _ []string) error {
			lines := bufio.NewScanner(env.Stdin)
			lines.Buffer(make([]byte, 0, 64<<10), maxPostRequest)
			answers := json.NewEncoder(env.raw())
			for lines.Scan() {
				var req session.PostRequest
				if err := json.Unmarshal(lines.Bytes(), &req); err != nil {
					return fmt.Errorf("failed to read a post: %w", err)
				}
				if err := answers.Encode(session.ServePost(cmd.Context(), req)); err != nil {
					return fmt.Errorf("failed to answer a post: %w", err)
				}
			}
			if errors.Is(lines.Err(), bufio.ErrTooLong) {
				return fmt.Errorf("a post is larger than %d bytes", maxPostRequest)
			}
			return lines.Err()
		},
	}
}
