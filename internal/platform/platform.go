package platform

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"

	"github.com/planq-dev/planq/planqerr"
)

// Unsupported is the error for feature, which cannot work on this
// platform: "<feature>: not supported on <os>", and hint, what to do
// instead.
func Unsupported(feature, hint string) *planqerr.Error {
	return unsupportedOn(runtime.GOOS, feature, hint)
}

func unsupportedOn(goos, feature, hint string) *planqerr.Error {
	return planqerr.New(planqerr.Failure, feature, "not supported on %s", goos).WithHint("%s", hint)
}

// Shell is the POSIX shell that runs a command line of the user's, such as
// $EDITOR, with the arguments after "-c LINE NAME". Unix has sh. Windows has
// none of its own, but Git for Windows, which planq needs, brings one: sh
// on PATH (Git Bash, MSYS2, Cygwin), else the one in git's installation.
// Where there is none, Shell says feature is not supported, with hint.
func Shell(feature, hint string) (string, error) {
	return shellOn(runtime.GOOS, feature, hint)
}

func shellOn(goos, feature, hint string) (string, error) {
	if goos != "windows" {
		return "sh", nil
	}
	if sh, err := exec.LookPath("sh"); err == nil {
		return sh, nil
	}
	if git, err := exec.LookPath("git"); err == nil {
		if sh := shellBesideGit(git); sh != "" {
			return sh, nil
		}
	}
	return "", unsupportedOn(goos, feature, hint)
}

// shellBesideGit finds the sh.exe of the Git for Windows installation that
// holds git (at cmd\git.exe, bin\git.exe or mingw64\bin\git.exe): bin\sh.exe
// or usr\bin\sh.exe at its root. It returns "" when there is none.
func shellBesideGit(git string) string {
	dir := filepath.Dir(git)
	for _, root := range []string{filepath.Dir(dir), filepath.Dir(filepath.Dir(dir))} {
		for _, sh := range []string{filepath.Join(root, "bin", "sh.exe"), filepath.Join(root, "usr", "bin", "sh.exe")} {
			if info, err := os.Stat(sh); err == nil && info.Mode().IsRegular() {
				return sh
			}
		}
	}
	return ""
}

// ServerProgramName is the program that holds planq's servers and its
// network (the MCP server, the review page, the HTTP client).
const ServerProgramName = "planq-server"

// ServerProgram finds planq-server beside the running program (the same
// installation), else on PATH.
func ServerProgram() (string, error) {
	name := ServerProgramName
	if runtime.GOOS == "windows" {
		name += ".exe"
	}
	if self, err := os.Executable(); err == nil {
		if p := filepath.Join(filepath.Dir(self), name); isFile(p) {
			return p, nil
		}
	}
	if p, err := exec.LookPath(ServerProgramName); err == nil {
		return p, nil
	}
	return "", planqerr.New(planqerr.NotFound, ServerProgramName, "is not installed beside planq or on PATH; it serves planq's MCP server and review page, and reaches the network for planq").
		WithHint("install it as planq was installed: go install github.com/planq-dev/planq/cmd/planq-server@latest (a release archive holds both)")
}

func isFile(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.Mode().IsRegular()
}
