package main

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// byteUnits are the units parseByteSize reads, decimal and binary.
var byteUnits = map[string]float64{
	"": 1, "b": 1,
	"kb": 1e3, "mb": 1e6, "gb": 1e9, "tb": 1e12,
	"kib": 1 << 10, "mib": 1 << 20, "gib": 1 << 30, "tib": 1 << 40,
}

// parseByteSize reads a size such as 2GiB, 500MB or 1048576 (bytes), or
// "unlimited" (answered as -1). A size must be at least one byte.
func parseByteSize(text string) (int64, error) {
	t := strings.ToLower(strings.TrimSpace(text))
	if t == "unlimited" {
		return -1, nil
	}
	i := strings.IndexFunc(t, func(r rune) bool { return !(r >= '0' && r <= '9' || r == '.') })
	if i < 0 {
		i = len(t)
	}
	n, err := strconv.ParseFloat(t[:i], 64)
	unit, ok := byteUnits[strings.TrimSpace(t[i:])]
	if err != nil || !ok || n < 0 {
		return 0, fmt.Errorf("%q is not a size such as 2GiB, 500MB or a number of bytes, nor unlimited", text)
	}
	size := n * unit
	if size < 1 || size > math.MaxInt64/2 {
		return 0, fmt.Errorf("%q is out of range (at least one byte)", text)
	}
	return int64(size), nil
}
