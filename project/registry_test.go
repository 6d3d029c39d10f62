package project

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

func TestRegisterRecordsTheCodeRepositoryAndPrivacyOnlyWhenChanged(t *testing.T) {
	home := t.TempDir()
	code := filepath.Join(t.TempDir(), "app")
	p := &Project{Root: filepath.Join(code, "wt"), CommonGitDir: filepath.Join(code, ".git"), Home: home, Config: Config{Project: "demo"}}
	// No state repository yet: nothing is written.
	if err := p.Register(); err != nil {
		t.Fatal(err)
	}
	if _, ok, err := ReadRegistration(home, "demo"); err != nil || ok {
		t.Fatalf("registered without a state repository: ok %v, err %v", ok, err)
	}
	if err := os.MkdirAll(p.StateRepo(), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := p.Register(); err != nil {
		t.Fatal(err)
	}
	reg, ok, err := ReadRegistration(home, "demo")
	if err != nil || !ok || reg.CodeRepo != code || reg.Private {
		t.Fatalf("registration %+v, ok %v, err %v; want the main checkout %s, not private", reg, ok, err, code)
	}
	// Unchanged: the file is not rewritten.
	path := filepath.Join(p.StateRepo(), RegistryFile)
	old := time.Now().Add(-time.Hour)
	if err := os.Chtimes(path, old, old); err != nil {
		t.Fatal(err)
	}
	if err := p.Register(); err != nil {
		t.Fatal(err)
	}
	if info, err := os.Stat(path); err != nil || !info.ModTime().Equal(old) {
		t.Fatalf("an unchanged registration was rewritten (%v)", err)
	}
	// Opting out is recorded at the next command.
	p.Config.Private = true
	if err := p.Register(); err != nil {
		t.Fatal(err)
	}
	if reg, _, _ := ReadRegistration(home, "demo"); !reg.Private {
		t.Fatalf("private not recorded: %+v", reg)
	}
}

func TestRegisterLeavesTheUserLayerAlone(t *testing.T) {
	home := t.TempDir()
	u, err := UserLayer(home)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(u.StateRepo(), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := u.Register(); err != nil {
		t.Fatal(err)
	}
	if _, ok, _ := ReadRegistration(home, UserLayerName); ok {
		t.Fatal("the user layer was registered as a project")
	}
}
