package knowledge

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"strings"

	"github.com/planq-dev/planq/agent"
	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/project"
	"github.com/planq-dev/planq/staterepo"
)

// An update reads global's learnings, decisions and knowledge base, and
// nothing else: the index it writes names what it read (stepKey), and an
// update that finds the index naming what global holds has nothing to do.
// Every push runs one, and so does every pull that moved global; a
// fast-forward to a global a teammate pushed in step costs a few tree
// reads, not the parse of every record.

// inStepPrefix opens the index's line that names what the update that
// wrote it read, and the index's own text. A merge's regenerated index has
// none: it claims nothing.
const inStepPrefix = "<!-- planq: in step with "

// markInStep puts in index the line naming key and the rest of the index's
// text, after its first line that starts with after (the rule's mark): an
// index edited by hand no longer matches its line.
func markInStep(index []byte, key string) []byte {
	sum := sha256.Sum256(index)
	line := inStepPrefix + key + "." + hex.EncodeToString(sum[:8]) + " -->\n"
	at := bytes.Index(index, []byte(disputeRuleMark+"\n"))
	if at < 0 {
		return append(index, line...)
	}
	at += len(disputeRuleMark) + 1
	return slices.Concat(index[:at], []byte(line), index[at:])
}

// claimedKey is the key index names, "" when its line is missing or its
// text is not the text the line was written with.
func claimedKey(index []byte) string {
	start := bytes.Index(index, []byte(inStepPrefix))
	if start < 0 {
		return ""
	}
	end := bytes.IndexByte(index[start:], '\n')
	if end < 0 {
		return ""
	}
	line := string(index[start : start+end])
	claim, ok := strings.CutSuffix(strings.TrimPrefix(line, inStepPrefix), " -->")
	key, sum, found := strings.Cut(claim, ".")
	if !ok || !found {
		return ""
	}
	got := sha256.Sum256(withoutInStep(index))
	if hex.EncodeToString(got[:8]) != sum {
		return ""
	}
	return key
}

// withoutInStep is index without its in-step line.
func withoutInStep(index []byte) []byte {
	start := bytes.Index(index, []byte(inStepPrefix))
	if start < 0 {
		return index
	}
	end := bytes.IndexByte(index[start:], '\n')
	if end < 0 {
		return index[:start]
	}
	return slices.Concat(index[:start], index[start+end+1:])
}

// stepKey names what an update reads of tree, and how: the trees of the
// learnings and the decisions, the knowledge base's entries but its index,
// the topics, and the rule that decides disputes. Two machines that hold
// the same records and articles have the same key.
func stepKey(repo *staterepo.Repo, tree staterepo.Hash, topics []string) (string, error) {
	h := sha256.New()
	fmt.Fprintf(h, "%s\n%s\n", disputeRuleMark, strings.Join(topics, ","))
	subs, err := sourcesOf(repo, tree)
	if err != nil {
		return "", err
	}
	for i, k := range sourceKinds {
		if k != changelog.KindArticle {
			fmt.Fprintf(h, "%s %s\n", k.Dir(), subs[i])
			continue
		}
		entries, err := repo.TreeEntries(subs[i])
		if err != nil {
			return "", err
		}
		for _, e := range entries {
			if dir+"/"+e.Name != IndexPath {
				fmt.Fprintf(h, "%s/%s %s\n", k.Dir(), e.Name, e.Blob)
			}
		}
	}
	return hex.EncodeToString(h.Sum(nil)[:12]), nil
}

// inStep reports whether the knowledge base of tree, whose index is the
// blob index, is what an update would leave it: the index names what the
// tree holds.
func inStep(repo *staterepo.Repo, tree, index staterepo.Hash, topics []string) (bool, error) {
	if index.IsZero() {
		return false, nil
	}
	data, err := repo.ReadBlob(index)
	if err != nil {
		return false, err
	}
	claimed := claimedKey(data)
	if claimed == "" {
		return false, nil
	}
	key, err := stepKey(repo, tree, topics)
	return err == nil && key == claimed, err
}

// globalInStep is inStep at global's tip.
func globalInStep(repo *staterepo.Repo, topics []string) (bool, error) {
	tip, err := repo.Tip(project.GlobalBranch)
	if err != nil {
		return false, err
	}
	tree, err := repo.TreeOf(tip)
	if err != nil {
		return false, err
	}
	index, err := repo.BlobAt(tree, IndexPath)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	return inStep(repo, tree, index, topics)
}

// keyAfter is the step key of the tree change makes of base (its index
// aside).
func keyAfter(repo *staterepo.Repo, base staterepo.Hash, change map[string]agent.Rewrite, topics []string) (string, error) {
	edits := make(map[string]staterepo.Hash, len(change))
	for p, rw := range change {
		if p == IndexPath {
			continue
		}
		if rw.Data == nil {
			edits[p] = staterepo.ZeroHash
			continue
		}
		blob, err := repo.WriteBlob(rw.Data)
		if err != nil {
			return "", fmt.Errorf("failed to write %s: %w", p, err)
		}
		edits[p] = blob
	}
	tree, err := repo.EditTree(base, edits)
	if err != nil {
		return "", err
	}
	return stepKey(repo, tree, topics)
}

// keyFor is the key the index of change names: that of the tree it makes
// of st's, when st was in step (a kb command's change of a knowledge base
// in step leaves it in step); "" else.
func keyFor(repo *staterepo.Repo, st *state, change map[string]agent.Rewrite, topics []string) (string, error) {
	if ok, err := inStep(repo, st.Tree, st.Index, topics); err != nil || !ok {
		return "", err
	}
	return keyAfter(repo, st.Tree, change, topics)
}
