package readmodel

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/planq-dev/planq/planqerr"
)

func TestParseSinceReadsEveryForm(t *testing.T) {
	now := time.Date(2026, 3, 10, 12, 0, 0, 0, time.UTC)
	for in, want := range map[string]time.Time{
		"":                          {},
		"7d":                        now.AddDate(0, 0, -7),
		" 7d ":                      now.AddDate(0, 0, -7),
		"0d":                        now,
		"2w":                        now.AddDate(0, 0, -14),
		"12h":                       now.Add(-12 * time.Hour),
		"90m":                       now.Add(-90 * time.Minute),
		"1h30m":                     now.Add(-90 * time.Minute),
		"2026-01-02":                time.Date(2026, 1, 2, 0, 0, 0, 0, time.Local),
		"2026-01-02T09:30":          time.Date(2026, 1, 2, 9, 30, 0, 0, time.Local),
		"2026-01-02T09:30:15":       time.Date(2026, 1, 2, 9, 30, 15, 0, time.Local),
		"2026-01-02T09:30:00Z":      time.Date(2026, 1, 2, 9, 30, 0, 0, time.UTC),
		"2026-01-02T09:30:00+02:00": time.Date(2026, 1, 2, 7, 30, 0, 0, time.UTC),
	} {
		got, err := ParseSince(in, now)
		if err != nil || !got.Equal(want) {
			t.Errorf("ParseSince(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, in := range []string{"yesterday", "last tuesday", "7", "d", "-7d", "-1h", "+7d", "+1h", "7y", "2026-13-01", "2026-01-02 09:30", "7 d"} {
		_, err := ParseSince(in, now)
		var pe *planqerr.Error
		if !errors.As(err, &pe) || pe.Kind != planqerr.Invalid || !strings.Contains(err.Error(), "is neither a date, a time nor an age") {
			t.Errorf("ParseSince(%q): %v, want an invalid-argument error that says what it takes", in, err)
		}
	}
}

// FuzzParseSince: any text is read or refused, never a panic; an age is
// never after now, and what is read reads the same with spaces around it.
func FuzzParseSince(f *testing.F) {
	for _, s := range []string{"7d", "4w", "12h", "1h30m", "2026-01-02", "2026-01-02T09:30", "2026-01-02T09:30:00Z", "-7d", "9999999999999d", "", "0"} {
		f.Add(s)
	}
	now := time.Date(2026, 3, 10, 12, 0, 0, 0, time.UTC)
	f.Fuzz(func(t *testing.T, s string) {
		got, err := ParseSince(s, now)
		if err != nil {
			return
		}
		again, err := ParseSince("  "+s+"\n", now)
		if err != nil || !again.Equal(got) {
			t.Fatalf("%q reads %v, with spaces %v, %v", s, got, again, err)
		}
		for _, layout := range sinceLayouts {
			if _, err := time.Parse(layout, strings.TrimSpace(s)); err == nil {
				return // a date or a time may be after now
			}
		}
		if got.After(now) {
			t.Fatalf("the age %q reads %v, after now %v", s, got, now)
		}
	})
}
