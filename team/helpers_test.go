package team

import (
	"crypto/sha1"
	"fmt"
)

// blobHash is git's object ID of a blob with data.
func blobHash(data []byte) [20]byte {
	return sha1.Sum(append([]byte(fmt.Sprintf("blob %d\x00", len(data))), data...))
}
