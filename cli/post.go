package cli

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/planq-dev/planq/session"
)

// maxPostRequest bounds what 'planq-server post' reads on stdin: a batch
// of texts an endpoint is sent, as JSON.
const maxPostRequest = 64 << 20

// newPostCmd is 'planq-server post', hidden: planq links no HTTP client,
// whose initialisation every start would pay, and reaches an embeddings
// endpoint through it. It reads a session.PostRequest on stdin, makes it,
// and writes what came, a session.PostAnswer, on stdout.
func newPostCmd(env *Env) *cobra.Command {
	return &cobra.Command{
		Use:    "post",
		Short:  "Make an HTTP post for planq (planq-server)",
		Hidden: true,
		Args:   exactArgs(0, "nothing: the post comes on stdin"),
		RunE: func(cmd *cobra.Command, _ []string) error {
			data, err := io.ReadAll(io.LimitReader(env.Stdin, maxPostRequest+1))
			if err != nil {
				return fmt.Errorf("failed to read the post: %w", err)
			}
			if len(data) > maxPostRequest {
				return fmt.Errorf("the post is larger than %d bytes", maxPostRequest)
			}
			var req session.PostRequest
			if err := json.Unmarshal(data, &req); err != nil {
				return fmt.Errorf("failed to read the post: %w", err)
			}
			return env.writeJSON(session.ServePost(cmd.Context(), req))
		},
	}
}
