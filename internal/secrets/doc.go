// Package secrets spots obvious credentials in text before planq commits or
// pushes it: cloud access keys, API tokens, private key blocks. It looks for
// well-known shapes only, so a hit is almost always real; it is a seat belt,
// not a secret scanner.
package secrets
