package embed

import "context"

// Model turns texts into unit-length vectors of one dimension.
type Model interface {
	// ID names the model and its exact contents or version
	// ("planq-default@<sha256 prefix>", "model2vec:<dir>@<hash>"): the read
	// model embeds every record again when it changes.
	ID() string
	// Dim is the length of every vector Embed returns.
	Dim() int
	// Embed returns one vector per text, of length Dim and L2-normalised;
	// a text with no token the model knows gets the zero vector.
	Embed(ctx context.Context, texts []string) ([][]float32, error)
}
