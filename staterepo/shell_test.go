package staterepo

import (
	"os"
	"os/exec"
	"strings"
)

// runShell runs a shell command in dir with a private index and stdin.
func runShell(dir, index, command, stdin string) (string, error) {
	cmd := exec.Command("sh", "-c", command)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_INDEX_FILE="+index)
	cmd.Stdin = strings.NewReader(stdin)
	out, err := cmd.CombinedOutput()
	return string(out), err
}
