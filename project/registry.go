package project

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/planq-dev/planq/internal/atomicfile"
)

// RegistryFile is the file inside a state repository
// ($PLANQ_HOME/state-repos/<project>.git/planq-project.json) that says
// whose it is: the code repository it belongs to and whether that project
// opted out of being searched from elsewhere. Other projects read it (planq
// projects, planq search --all-projects) without the code repository; git
// ignores a file it does not know in a repository's directory.
const RegistryFile = "planq-project.json"

// Registration is what a state repository's RegistryFile records of its
// project, as the last command run in it saw it.
type Registration struct {
	// CodeRepo is the main checkout of the code repository.
	CodeRepo string `json:"code_repo"`
	// Private is the project's private: flag (Config.Private).
	Private bool `json:"private,omitempty"`
}

// CodeRepo is the main checkout of p's code repository: the directory of
// its shared git directory, the same from every workspace of the
// project; Root when that is not known.
func (p *Project) CodeRepo() string {
	if p.CommonGitDir != "" && filepath.Base(p.CommonGitDir) == ".git" {
		return filepath.Dir(p.CommonGitDir)
	}
	if p.CommonGitDir != "" {
		return p.CommonGitDir // a bare code repository
	}
	return p.Root
}

// Register records p's code repository and private flag in its state
// repository's RegistryFile, rewriting it only when they changed: a
// command pays one small read. It does nothing for the user layer (no code
// repository) or a project opened without a checkout, and writes nothing
// where the state repository does not exist.
func (p *Project) Register() error {
	if p.IsUserLayer() || p.Root == "" {
		return nil
	}
	reg := Registration{CodeRepo: p.CodeRepo(), Private: p.Config.Private}
	data, err := json.Marshal(reg)
	if err != nil {
		return fmt.Errorf("failed to encode the registration of %s: %w", p.Config.Project, err)
	}
	data = append(data, '\n')
	path := filepath.Join(p.StateRepo(), RegistryFile)
	if old, err := os.ReadFile(path); err == nil && bytes.Equal(old, data) {
		return nil
	}
	if _, err := os.Stat(p.StateRepo()); err != nil {
		return nil // not made yet: nothing to register beside
	}
	if err := atomicfile.WriteFile(path, data, 0o644); err != nil {
		return fmt.Errorf("failed to register %s: %w", p.Config.Project, err)
	}
	return nil
}

// ReadRegistration reads what the state repository of the project name
// under home records of it; ok is false when it records nothing (no
// command of this planq ran in the project yet).
func ReadRegistration(home, name string) (reg Registration, ok bool, err error) {
	path := filepath.Join(StateRepoPath(home, name), RegistryFile)
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return Registration{}, false, nil
	}
	if err != nil {
		return Registration{}, false, fmt.Errorf("failed to read %s: %w", path, err)
	}
	if err := json.Unmarshal(data, &reg); err != nil {
		return Registration{}, false, fmt.Errorf("failed to read %s: %w", path, err)
	}
	return reg, true, nil
}
