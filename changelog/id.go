package changelog

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"strconv"
	"strings"
	"time"
)

// IDPrefix starts every record ID.
const IDPrefix = "pq-"

// idHexLen is the number of hex digits in a new ID: 40 bits, so that a
// project with a hundred thousand records has well under a one-percent chance
// of any collision, and a collision is caught when the file is created.
const idHexLen = 10

// NewID returns a fresh record ID derived from what the record says, who said
// it, when, and a random salt, so two agents writing the same words at the
// same instant still get different IDs.
func NewID(agent string, kind Kind, body string, at time.Time) string {
	var salt [8]byte
	_, _ = rand.Read(salt[:]) // crypto/rand.Read never fails on supported platforms
	h := sha256.New()
	for _, part := range []string{agent, string(kind), body, strconv.FormatInt(at.UnixNano(), 10)} {
		h.Write([]byte(part))
		h.Write([]byte{0})
	}
	h.Write(salt[:])
	return IDPrefix + hex.EncodeToString(h.Sum(nil))[:idHexLen]
}

// ValidID reports whether s has the shape of a record ID.
func ValidID(s string) bool {
	hexPart, ok := strings.CutPrefix(s, IDPrefix)
	if !ok || len(hexPart) < 4 || len(hexPart) > 64 {
		return false
	}
	for _, c := range hexPart {
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}
