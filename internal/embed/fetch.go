package embed

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/planq-dev/planq/internal/platform"
	"github.com/planq-dev/planq/planqerr"
)

// DefaultHub is the Hugging Face hub, where Fetch downloads from unless
// $HF_ENDPOINT (the hub's own variable) names another.
const DefaultHub = "https://huggingface.co"

// Model2VecConfig is the third file of a model2vec model: its settings,
// which Fetch downloads with the other two and planq does not read.
const Model2VecConfig = "config.json"

// ModelFiles are the files of a model2vec model, as Fetch downloads them.
var ModelFiles = []string{Model2VecWeights, Model2VecTokenizer, Model2VecConfig}

const (
	// DefaultMaxModelBytes is the largest model.safetensors Fetch takes:
	// the largest LoadModel2Vec reads.
	DefaultMaxModelBytes = maxModelFile
	// maxConfigBytes bounds config.json.
	maxConfigBytes = 1 << 20
	// DefaultStall is how long a download may go without a byte.
	DefaultStall = 30 * time.Second
)

// FetchOptions tune Fetch; the zero value downloads from the hub.
type FetchOptions struct {
	// Hub is the hub's base URL; "" means $HF_ENDPOINT, else DefaultHub.
	Hub string
	// Force replaces a model already fetched under that name.
	Force bool
	// MaxModelBytes bounds model.safetensors; zero means DefaultMaxModelBytes.
	MaxModelBytes int64
	// Stall is how long a download may go without a byte; zero means DefaultStall.
	Stall time.Duration
}

// Fetched is a model Fetch downloaded.
type Fetched struct {
	// Name is the model's name on the hub, owner/name.
	Name string `json:"name"`
	// Dir is the directory it is in.
	Dir string `json:"dir"`
	// Hub is where it came from.
	Hub   string        `json:"hub"`
	Files []FetchedFile `json:"files"`
}

// FetchedFile is one file of a fetched model.
type FetchedFile struct {
	Name   string `json:"name"`
	Bytes  int64  `json:"bytes"`
	SHA256 string `json:"sha256"`
}

// hubNameRE is a name part as the hub allows it: letters, digits, '-', '_'
// and '.', neither first nor last a '-' or '.'.
var hubNameRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^[A-Za-z0-9](?:[A-Za-z0-9._-]{0,94}[A-Za-z0-9])?$`)
})

// CheckHubName says why name is not a model's name on the hub, owner/name,
// or nil: it also becomes two directories under $PLANQ_HOME/models.
func CheckHubName(name string) error {
	owner, repo, ok := strings.Cut(name, "/")
	if !ok || strings.Contains(repo, "/") || !hubNameRE().MatchString(owner) || !hubNameRE().MatchString(repo) ||
		strings.Contains(name, "..") || strings.Contains(name, "--") {
		return planqerr.New(planqerr.Invalid, fmt.Sprintf("model %q", name), "is not a model's name on the hub").
			WithHint("name it as the hub does, owner/name, like minishlab/potion-base-8M: letters, digits, '-', '_' and '.'")
	}
	return nil
}

// HubModelDir is where the model name (owner/name) lives under the models directory.
func HubModelDir(models, name string) string {
	owner, repo, _ := strings.Cut(name, "/")
	return filepath.Join(models, owner, repo)
}

// Fetch downloads the model2vec model name (owner/name) from the hub into
// dest/owner/name and returns what it wrote. Each file comes from
// <hub>/<owner>/<name>/resolve/main/<file>, within a size limit, into a
// directory beside the model's that is renamed into place only once every
// file is there and reads as what it should be: a model is there whole, or
// not at all. A model already there is refused unless opts.Force. The
// model is converted to a table then, which LoadConverted reads.
func Fetch(ctx context.Context, name, dest string, opts FetchOptions) (Fetched, error) {
	if err := CheckHubName(name); err != nil {
		return Fetched{}, err
	}
	hub, err := hubBase(opts.Hub)
	if err != nil {
		return Fetched{}, err
	}
	final := HubModelDir(dest, name)
	subject := "model " + name
	if _, err := os.Stat(final); err == nil && !opts.Force {
		return Fetched{}, planqerr.New(planqerr.Exists, subject, "is already in %s", final).
			WithHint("use it as it is, or fetch it again over it: planq model fetch %s --force", name)
	}
	parent := filepath.Dir(final)
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return Fetched{}, fmt.Errorf("failed to make %s: %w", parent, err)
	}
	tmp, err := os.MkdirTemp(parent, ".fetch-"+filepath.Base(final)+"-")
	if err != nil {
		return Fetched{}, fmt.Errorf("failed to make a directory to download into: %w", err)
	}
	defer func() { _ = os.RemoveAll(tmp) }() // gone once renamed into place
	if Network.Get == nil {
		return Fetched{}, planqerr.New(planqerr.Failure, subject, "this program reaches no network; %s fetches models", platform.ServerProgramName).
			WithHint("run planq model fetch %s, which %s runs", name, platform.ServerProgramName)
	}
	f := fetcher{hub: hub, name: name, subject: subject, opts: opts}
	if f.opts.MaxModelBytes <= 0 {
		f.opts.MaxModelBytes = DefaultMaxModelBytes
	}
	if f.opts.Stall <= 0 {
		f.opts.Stall = DefaultStall
	}
	f.token = os.Getenv("HF_TOKEN")
	out := Fetched{Name: name, Dir: final, Hub: hub}
	for _, file := range ModelFiles {
		got, err := f.download(ctx, tmp, file)
		if err != nil {
			return Fetched{}, err
		}
		out.Files = append(out.Files, got)
	}
	t, err := checkModelDir(tmp, final)
	if err != nil {
		return Fetched{}, fetchedUnreadable(subject, name, err)
	}
	if err := syncDir(tmp); err != nil {
		return Fetched{}, err
	}
	if err := replaceDir(tmp, final, opts.Force); err != nil {
		if errors.Is(err, fs.ErrExist) {
			return Fetched{}, planqerr.New(planqerr.Exists, subject, "was fetched into %s meanwhile", final).
				WithHint("use it as it is, or fetch it again over it: planq model fetch %s --force", name)
		}
		return Fetched{}, fmt.Errorf("failed to put the model in place: %w", err)
	}
	// Saved now, the table is what the first search reads, in
	// milliseconds; unsaved, that search converts the model again.
	_ = saveConverted(convertedPath(final, dest), t)
	return out, syncDir(parent)
}

// hubBase is the hub's base URL: given, else $HF_ENDPOINT, else DefaultHub.
func hubBase(given string) (string, error) {
	base, from := given, "the hub's URL"
	if base == "" {
		base, from = os.Getenv("HF_ENDPOINT"), "$HF_ENDPOINT"
	}
	if base == "" {
		return DefaultHub, nil
	}
	u, err := url.Parse(base)
	if err != nil || u.Scheme != "http" && u.Scheme != "https" || u.Host == "" || u.User != nil || u.RawQuery != "" || u.Fragment != "" {
		return "", planqerr.New(planqerr.Invalid, from, "%q is not an http or https URL of a hub", base).
			WithHint("set HF_ENDPOINT to a hub's base URL, like %s, or unset it", DefaultHub)
	}
	u.Path = strings.TrimRight(u.Path, "/")
	u.RawPath = ""
	return u.String(), nil
}

type fetcher struct {
	hub, name, subject, token string
	opts                      FetchOptions
}

// limit is the most bytes file may hold.
func (f *fetcher) limit(file string) int64 {
	switch file {
	case Model2VecWeights:
		return f.opts.MaxModelBytes
	case Model2VecTokenizer:
		return maxTokenizerFile
	}
	return maxConfigBytes
}

// download writes one file of the model into dir: to a temporary file,
// synced and renamed to its name once whole.
func (f *fetcher) download(ctx context.Context, dir, file string) (FetchedFile, error) {
	owner, repo, _ := strings.Cut(f.name, "/")
	src := f.hub + "/" + url.PathEscape(owner) + "/" + url.PathEscape(repo) + "/resolve/main/" + file
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	stalled := fmt.Errorf("no byte of %s came for %s", file, f.opts.Stall)
	timer := time.AfterFunc(f.opts.Stall, func() { cancel(stalled) })
	defer timer.Stop()
	status, length, body, err := Network.Get(ctx, src, f.token)
	if err != nil {
		return FetchedFile{}, f.failed(ctx, file, src, err)
	}
	defer func() { _ = body.Close() }()
	if status != 200 {
		return FetchedFile{}, f.httpError(file, src, status)
	}
	return f.save(ctx, dir, file, src, download{length: length, body: body, timer: timer})
}

// download is a file's answer under way: its length (-1: not said), its
// body, and the timer a stall sets off.
type download struct {
	length int64
	body   io.Reader
	timer  *time.Timer
}

func (f *fetcher) save(ctx context.Context, dir, file, src string, resp download) (FetchedFile, error) {
	limit := f.limit(file)
	if resp.length > limit {
		return FetchedFile{}, f.tooLarge(file, limit)
	}
	tmp, err := os.CreateTemp(dir, "."+file+"-")
	if err != nil {
		return FetchedFile{}, fmt.Errorf("failed to make a file to download %s into: %w", file, err)
	}
	defer func() { _ = os.Remove(tmp.Name()) }() // gone once renamed
	h := sha256.New()
	body := &stallReader{r: resp.body, timer: resp.timer, stall: f.opts.Stall}
	n, err := io.Copy(io.MultiWriter(tmp, h), io.LimitReader(body, limit+1))
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	switch {
	case err != nil && ctx.Err() != nil:
		return FetchedFile{}, f.failed(ctx, file, src, err)
	case err != nil:
		return FetchedFile{}, fmt.Errorf("failed to download %s of %s: %w", file, f.name, err)
	case n > limit:
		return FetchedFile{}, f.tooLarge(file, limit)
	case resp.length >= 0 && n != resp.length:
		return FetchedFile{}, planqerr.New(planqerr.Failure, f.subject, "%s came cut short: %d of %d bytes", file, n, resp.length).
			WithHint("fetch it again")
	}
	if err := os.Rename(tmp.Name(), filepath.Join(dir, file)); err != nil {
		return FetchedFile{}, fmt.Errorf("failed to name the downloaded %s: %w", file, err)
	}
	return FetchedFile{Name: file, Bytes: n, SHA256: hex.EncodeToString(h.Sum(nil))}, nil
}

// stallReader pushes its timer back with every read that brings bytes.
type stallReader struct {
	r     io.Reader
	timer *time.Timer
	stall time.Duration
}

func (s *stallReader) Read(p []byte) (int, error) {
	n, err := s.r.Read(p)
	if n > 0 {
		s.timer.Reset(s.stall)
	}
	return n, err
}

// failed says why a download stopped: the caller's context, a stall, or
// a hub that cannot be reached.
func (f *fetcher) failed(ctx context.Context, file, src string, err error) error {
	if cause := context.Cause(ctx); cause != nil && !errors.Is(cause, context.Canceled) && !errors.Is(cause, context.DeadlineExceeded) {
		return planqerr.New(planqerr.Failure, f.subject, "%w", cause).WithHint("check the network, and fetch it again")
	}
	if ctx.Err() != nil {
		return fmt.Errorf("failed to download %s: %w", file, ctx.Err())
	}
	return planqerr.New(planqerr.Failure, f.subject, "cannot download %s from %s: %w", file, src, err).
		WithHint("check the network, or point HF_ENDPOINT at a hub you can reach")
}

func (f *fetcher) httpError(file, src string, status int) error {
	switch status {
	case 404: // not found
		return planqerr.New(planqerr.NotFound, f.subject, "has no %s on %s (HTTP 404 from %s)", file, f.hub, src).
			WithHint("check the name; a model2vec model has %s", strings.Join(ModelFiles, ", "))
	case 401, 403: // unauthorised, forbidden
		return planqerr.New(planqerr.Failure, f.subject, "%s was refused (HTTP %d from %s)", file, status, src).
			WithHint("the hub answers so for a name it does not have, and for a private or gated model: check the name, or export HF_TOKEN=<your token>")
	}
	return planqerr.New(planqerr.Failure, f.subject, "%s was not served (HTTP %d from %s)", file, status, src).
		WithHint("fetch it again later")
}

func (f *fetcher) tooLarge(file string, limit int64) error {
	return planqerr.New(planqerr.Refused, f.subject, "%s is larger than %d MiB", file, limit>>20).
		WithHint("a model2vec model's files are smaller; check the name")
}

// checkModelDir checks that a downloaded model is one planq reads, loading
// it as search would, so that neither an error page served as a file nor a
// model of a tokenizer planq cannot reproduce is kept. It returns the
// model's table, as converted for final, where the model goes.
func checkModelDir(dir, final string) (*Table, error) {
	data, err := os.ReadFile(filepath.Join(dir, Model2VecConfig))
	if err != nil {
		return nil, fmt.Errorf("failed to read %s: %w", Model2VecConfig, err)
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(data, &obj); err != nil {
		return nil, planqerr.New(planqerr.Corrupt, Model2VecConfig, "is not a JSON object")
	}
	m, err := LoadModel2Vec(dir)
	if err != nil {
		return nil, err
	}
	return m.convert(dir, final)
}

// fetchedUnreadable says why a downloaded model is not kept: what the
// loader found, naming the file by its name, not by the directory it was
// downloaded into, which is gone.
func fetchedUnreadable(subject, name string, err error) error {
	out := planqerr.New(planqerr.Corrupt, subject, "as fetched, %w", err).
		WithHint("check that %s is a model2vec model: %s", name, strings.Join(ModelFiles, ", "))
	var pe *planqerr.Error
	if errors.As(err, &pe) {
		out = planqerr.New(pe.Kind, subject, "as fetched, %s: %w", filepath.Base(pe.Subject), pe.Err)
		out.Hint = pe.Hint
		var unsupported errUnsupported
		if errors.As(err, &unsupported) {
			out.Hint = "fetch a model2vec model distilled from a BERT-style model (its tokenizer.json has a WordPiece model), or use an embeddings endpoint"
		}
		if out.Hint == "" {
			out.Hint = fmt.Sprintf("check that %s is a model2vec model: %s", name, strings.Join(ModelFiles, ", "))
		}
	}
	return out
}

// replaceDir renames tmp to final; with replace, a final already there is
// moved aside first and removed after.
func replaceDir(tmp, final string, replace bool) error {
	var old string
	if replace {
		if _, err := os.Stat(final); err == nil {
			old = tmp + ".old"
			if err := os.Rename(final, old); err != nil {
				return err
			}
		}
	}
	if err := os.Rename(tmp, final); err != nil {
		if old != "" {
			_ = os.Rename(old, final)
		}
		if _, serr := os.Stat(final); serr == nil {
			return fmt.Errorf("%s: %w", final, fs.ErrExist)
		}
		return err
	}
	if old != "" {
		return os.RemoveAll(old)
	}
	return nil
}

// syncDir makes the names in dir durable.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return fmt.Errorf("failed to open %s: %w", dir, err)
	}
	defer func() { _ = d.Close() }()
	if err := d.Sync(); err != nil && !errors.Is(err, fs.ErrInvalid) {
		return fmt.Errorf("failed to sync %s: %w", dir, err)
	}
	return nil
}
