// Package testwaits holds the check that the repository's tests wait on facts, not clocks (docs/decisions.md
// 363): its test fails on a time.Sleep in a Go test file, or a waitForTimeout in a test of web/ or edge/, unless
// allowlist.txt beside it lists that line with the reason it stays. A time.Sleep inside a testing/synctest bubble
// (the function given to synctest.Test) is no wait: it moves the bubble's fake clock, and is not listed. A test
// waits on a fact with testenv.WaitFor, or on its own poll of the state it needs.
package testwaits
