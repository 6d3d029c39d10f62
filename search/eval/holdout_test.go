package eval

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestHoldoutListsTheData: HOLDOUT, which a model's training script reads
// to refuse the evaluation's files as input, names every file of the data
// as it is now, so that a copy of one elsewhere is refused too.
func TestHoldoutListsTheData(t *testing.T) {
	dir := filepath.Join("..", "testdata", "eval")
	listed, err := readHoldout(filepath.Join(dir, "HOLDOUT"))
	if err != nil {
		t.Fatal(err)
	}
	files, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil || len(files) < 4 {
		t.Fatalf("data files %v (%v)", files, err)
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		sum := sha256.Sum256(data)
		name := filepath.Base(f)
		if !listed[hex.EncodeToString(sum[:])+"  "+name] {
			t.Errorf("HOLDOUT does not list %s as it is now: append the line\n%x  %s", name, sum, name)
		}
	}
}

// readHoldout reads HOLDOUT's lines, "<sha256>  <file>" as sha256sum
// prints them, skipping comments.
func readHoldout(path string) (map[string]bool, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	lines := map[string]bool{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		if line := strings.TrimSpace(sc.Text()); line != "" && !strings.HasPrefix(line, "#") {
			lines[line] = true
		}
	}
	return lines, sc.Err()
}
