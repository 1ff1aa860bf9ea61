//go:build unix

package ratelimit

import "syscall"

// FileLimit returns how many file descriptors the process may open (the
// soft RLIMIT_NOFILE, which the Go runtime raises to the hard limit when the
// program starts), or 0 when it cannot be read.
func FileLimit() uint64 {
	var rl syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &rl); err != nil {
		return 0
	}
	return uint64(rl.Cur)
}
