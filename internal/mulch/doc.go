// Package mulch reads and writes the expertise directory of mulch (.mulch/:
// one JSONL file of records per domain) and maps its records to planq's and
// back, so a team can move its memory into planq and out again.
package mulch
