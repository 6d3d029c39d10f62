//go:build !linux

package main

import "errors"

// modelPagesMapped reads Linux's /proc/<pid>/pagemap: not measured here.
func modelPagesMapped(string, string, string, ...string) (int, int, error) {
	return 0, 0, errors.New("measured on Linux only")
}
