//go:build !unix

package ratelimit

// FileLimit returns 0: the file descriptor limit is not known here.
func FileLimit() uint64 { return 0 }
