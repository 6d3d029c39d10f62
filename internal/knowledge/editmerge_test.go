package knowledge

import (
	"strings"
	"testing"
)

func TestMerge3KeepsEveryLineOfBothSides(t *testing.T) {
	base := "title\n\none\ntwo\nthree\n"
	for _, c := range []struct {
		name, mine, theirs, want string
		conflicts                int
	}{
		{"only mine", "title\n\none\ntwo\nthree\nmine\n", base, "title\n\none\ntwo\nthree\nmine\n", 0},
		{"only theirs", base, "TITLE\n\none\ntwo\nthree\n", "TITLE\n\none\ntwo\nthree\n", 0},
		{"apart", "TITLE\n\none\ntwo\nthree\n", "title\n\none\ntwo\nthree\ntheirs\n", "TITLE\n\none\ntwo\nthree\ntheirs\n", 0},
		{"the same change", "title\n\none\n2\nthree\n", "title\n\none\n2\nthree\n", "title\n\none\n2\nthree\n", 0},
		{"both append", base + "mine\n", base + "theirs\n",
			base + "<<<<<<< your edit\nmine\n=======\ntheirs\n>>>>>>> global\n", 1},
		{"both change a line", "title\n\none\nTWO\nthree\n", "title\n\none\nzwei\nthree\n",
			"title\n\none\n<<<<<<< your edit\nTWO\n=======\nzwei\n>>>>>>> global\nthree\n", 1},
		{"mine deletes what theirs changes", "title\n\none\nthree\n", "title\n\none\nzwei\nthree\n",
			"title\n\none\n<<<<<<< your edit\n=======\nzwei\n>>>>>>> global\nthree\n", 1},
		{"no final newline", "title\n\none\ntwo\nthree\nmine", base + "theirs",
			base + "<<<<<<< your edit\nmine\n=======\ntheirs\n>>>>>>> global\n", 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, n := merge3([]byte(base), []byte(c.mine), []byte(c.theirs))
			if string(got) != c.want || n != c.conflicts {
				t.Fatalf("merge3 = %q, %d conflicts; want %q, %d", got, n, c.want, c.conflicts)
			}
			// Every line a side wrote is in the merge.
			for _, side := range []string{c.mine, c.theirs} {
				for _, line := range strings.Split(side, "\n") {
					if !strings.Contains(base, line) && !strings.Contains(string(got), line) {
						t.Errorf("the merge lost %q", line)
					}
				}
			}
		})
	}
}
