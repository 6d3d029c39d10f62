package plural

import "testing"

func TestOf(t *testing.T) {
	for _, c := range []struct {
		n          int
		noun, want string
	}{
		{1, "note", "1 note"},
		{0, "note", "0 notes"},
		{2, "note", "2 notes"},
		{1, "raw note", "1 raw note"},
		{3, "raw note", "3 raw notes"},
		{2, "entry", "2 entries"},
		{2, "day", "2 days"},
		{2, "match", "2 matches"},
		{2, "push", "2 pushes"},
		{2, "index", "2 indexes"},
		{2, "class", "2 classes"},
		{1, "entry", "1 entry"},
		{-1, "day", "-1 day"},
		{5, "record file", "5 record files"},
	} {
		if got := Of(c.n, c.noun); got != c.want {
			t.Errorf("Of(%d, %q) = %q, want %q", c.n, c.noun, got, c.want)
		}
	}
	if got := Of(1, "raw note") + " " + Pick(1, "waits", "wait"); got != "1 raw note waits" {
		t.Errorf("got %q", got)
	}
	if got := Of(2, "raw note") + " " + Pick(2, "waits", "wait"); got != "2 raw notes wait" {
		t.Errorf("got %q", got)
	}
}
