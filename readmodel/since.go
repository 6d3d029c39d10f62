package readmodel

import (
	"strconv"
	"strings"
	"time"

	"github.com/planq-dev/planq/planqerr"
)

// sinceLayouts are the dates and times a since reads, in local time unless
// the time gives its zone (RFC 3339).
var sinceLayouts = []string{time.DateOnly, "2006-01-02T15:04", "2006-01-02T15:04:05", time.RFC3339}

// maxAgeDays bounds an age in days (some 2,700 years), so that going back
// never wraps the calendar around.
const maxAgeDays = 1_000_000

// ParseSince reads a since, as every --since of the CLI and the since of
// every MCP tool take it: a date (2026-01-31, from its start in local
// time), a time (2026-01-31T09:30, or RFC 3339 with its zone), or an age
// back from now: days or weeks (7d, 4w) or a duration (90m, 12h, 1h30m).
// "" is no limit: the zero time.
func ParseSince(s string, now time.Time) (time.Time, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return time.Time{}, nil
	}
	for _, layout := range sinceLayouts {
		if t, err := time.ParseInLocation(layout, s, time.Local); err == nil {
			return t, nil
		}
	}
	if !strings.HasPrefix(s, "-") { // an age back from now is never negative
		if n, err := strconv.Atoi(s[:len(s)-1]); err == nil && n >= 0 && n <= maxAgeDays && s[0] != '+' {
			switch s[len(s)-1] {
			case 'd':
				return now.AddDate(0, 0, -n), nil
			case 'w':
				return now.AddDate(0, 0, -7*n), nil
			}
		}
		if d, err := time.ParseDuration(s); err == nil && s[0] != '+' {
			return now.Add(-d), nil
		}
	}
	return time.Time{}, planqerr.New(planqerr.Invalid, "since "+strconv.Quote(s), "is neither a date, a time nor an age").
		WithHint("give a date like 2026-01-31, a time like 2026-01-31T09:30 or 2026-01-31T09:30:00Z, or an age like 7d, 4w, 12h or 90m")
}
