package project

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/planq-dev/planq/internal/atomicfile"
	"github.com/planq-dev/planq/planqerr"
)

// UserLayerName names the user layer's state repository
// ($PLANQ_HOME/state-repos/_user.git) and its cache. It starts with '_',
// which no project name may (NameProblem), so no project can take it.
const UserLayerName = "_user"

// UserConfigFile is where the user layer's settings live, under
// PLANQ_HOME: the user layer belongs to no code repository, so it has no
// .planq/config.
const UserConfigFile = "user.yaml"

// UserConfig is the user layer's settings.
type UserConfig struct {
	// Remote is where 'planq user push' and 'planq user pull' sync the
	// user layer, as a person syncs their dotfiles.
	Remote string `yaml:"remote,omitempty"`
}

// UserLayer is the user layer as a project with no code repository: its
// state repository, cache and remote are those of UserLayerName under
// home. Root and Workspace are empty: nothing of it is mounted in a
// checkout, and no code anchors its records.
func UserLayer(home string) (*Project, error) {
	uc, err := LoadUserConfig(home)
	if err != nil {
		return nil, err
	}
	return &Project{Home: home, Config: Config{Project: UserLayerName, Remote: uc.Remote}}, nil
}

// IsUserLayer reports whether p is the user layer rather than a project.
func (p *Project) IsUserLayer() bool { return p.Config.Project == UserLayerName }

// LoadUserConfig reads $PLANQ_HOME/user.yaml; a missing file is the zero
// configuration.
func LoadUserConfig(home string) (UserConfig, error) {
	path := filepath.Join(home, UserConfigFile)
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return UserConfig{}, nil
	}
	if err != nil {
		return UserConfig{}, fmt.Errorf("failed to read %s: %w", path, err)
	}
	var uc UserConfig
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(&uc); err != nil && !errors.Is(err, io.EOF) {
		return UserConfig{}, planqerr.New(planqerr.Corrupt, path, "%s", yamlProblem(err)).
			WithHint("it holds one key, remote: URL; fix it by hand or remove it")
	}
	uc.Remote = strings.TrimSpace(uc.Remote)
	return uc, nil
}

// SaveUserConfig writes $PLANQ_HOME/user.yaml.
func SaveUserConfig(home string, uc UserConfig) error {
	var buf bytes.Buffer
	buf.WriteString("# planq user layer: remote is where 'planq user push' and 'planq user pull' sync it.\n")
	enc := yaml.NewEncoder(&buf)
	if err := enc.Encode(uc); err != nil {
		return fmt.Errorf("failed to encode the user layer's settings: %w", err)
	}
	if err := enc.Close(); err != nil {
		return fmt.Errorf("failed to encode the user layer's settings: %w", err)
	}
	if err := os.MkdirAll(home, 0o755); err != nil {
		return fmt.Errorf("failed to create %s: %w", home, err)
	}
	path := filepath.Join(home, UserConfigFile)
	if err := atomicfile.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		return fmt.Errorf("failed to write %s: %w", path, err)
	}
	return nil
}
