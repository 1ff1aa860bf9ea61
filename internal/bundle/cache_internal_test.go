package bundle

import (
	"bytes"
	"testing"
)

// TestResultsLRU: the in-memory bundle cache keeps at most its number of
// bundles and bytes, drops the least recently used first (a hit counts as a
// use), keeps no bundle over a quarter of its bytes, and answers a hit with
// a copy of what was put.
func TestResultsLRU(t *testing.T) {
	t.Parallel()
	key := func(b byte) [32]byte { return [32]byte{b} }
	out := func(n int, fill byte) *Output { return &Output{Code: bytes.Repeat([]byte{fill}, n)} }
	has := func(c *lru, b byte) bool {
		_, ok := c.get(key(b))
		return ok
	}

	c := newLRU(2, 1<<20)
	c.put(key(1), out(10, 'a'))
	c.put(key(2), out(10, 'b'))
	if got, ok := c.get(key(1)); !ok || string(got.Code) != string(bytes.Repeat([]byte{'a'}, 10)) {
		t.Fatalf("hit of 1: %v %q", ok, got)
	}
	c.put(key(3), out(10, 'c')) // 2 is now the least recently used
	if has(c, 2) || !has(c, 1) || !has(c, 3) {
		t.Errorf("by count: want 1 and 3 kept, 2 dropped")
	}

	c = newLRU(100, 100)
	c.put(key(1), out(25, 'a'))
	c.put(key(2), out(25, 'b'))
	c.put(key(3), out(25, 'c'))
	c.put(key(4), out(25, 'd'))
	has(c, 1) // a use: 2 is the least recently used
	c.put(key(5), out(25, 'e'))
	if has(c, 2) || !has(c, 1) || !has(c, 3) || !has(c, 4) || !has(c, 5) || c.bytes != 100 {
		t.Errorf("by bytes: want 2 dropped and 100 bytes kept, have %d", c.bytes)
	}
	c.put(key(6), out(26, 'f'))
	if has(c, 6) {
		t.Error("a bundle over a quarter of the cache was kept")
	}

	got, _ := c.get(key(5))
	got.Code[0] = 'X'
	if again, _ := c.get(key(5)); again.Code[0] != 'e' {
		t.Error("a hit shares its bytes with the cache")
	}
}
