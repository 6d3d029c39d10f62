package cli

import (
	"context"
	"errors"
	"os"
	"strings"

	"github.com/planq-dev/planq/embed"
	"github.com/planq-dev/planq/internal/testkit/testmodel"
	"github.com/planq-dev/planq/project"
	"github.com/planq-dev/planq/readmodel"
)

// Variables of the test build, for the scripts that watch the embedding
// model (search_vector.txtar):
const (
	// modelLoadsVar names a file that every opening of the project's model
	// appends a line to: a command that does not search must leave none.
	modelLoadsVar = "PLANQ_TEST_MODEL_LOADS"
	// embedVar gives the model a table of synonyms instead of the one
	// built in: groups of words separated by ";", the words of a group
	// sharing one vector, the groups orthogonal. "!" and a message makes
	// the model fail to load with that message.
	embedVar = "PLANQ_TEST_EMBED"
)

func init() {
	builtIn := readmodel.ProjectModel
	readmodel.ProjectModel = func(ctx context.Context, p *project.Project) (embed.Model, error) {
		if path := os.Getenv(modelLoadsVar); path != "" {
			if f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644); err == nil {
				_, _ = f.WriteString("loaded\n")
				_ = f.Close()
			}
		}
		if spec := os.Getenv(embedVar); spec != "" {
			if msg, failed := strings.CutPrefix(spec, "!"); failed {
				return nil, errors.New(msg)
			}
			return synonymTable(spec)
		}
		return builtIn(ctx, p)
	}
}

// synonymTable is the table embedVar describes.
func synonymTable(spec string) (*embed.Table, error) {
	return testmodel.Synonyms(strings.Split(spec, ";")...)
}
