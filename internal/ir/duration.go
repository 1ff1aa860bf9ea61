package ir

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// Day, month and year as durations read them: a month is 30 days and a year
// 365 days.
const (
	day   = 24 * time.Hour
	month = 30 * day
	year  = 365 * day
)

// MaxSleep is Cloudflare's longest sleep and event wait: 365 days.
const MaxSleep = year

var durationUnits = map[string]time.Duration{
	"second": time.Second, "minute": time.Minute, "hour": time.Hour,
	"day": day, "week": 7 * day, "month": month, "year": year,
}

// ParseDuration reads a duration string: a number of seconds ("30", "0.5")
// or "<amount> <unit>" with a positive integer or decimal amount and a unit
// second, minute, hour, day, week, month (30 days) or year (365 days),
// singular or plural ("30 seconds", "1 day"). The error says what is wrong
// and what is accepted.
func ParseDuration(s string) (time.Duration, error) {
	t := strings.TrimSpace(s)
	if t == "" {
		return 0, fmt.Errorf("empty duration; write a number of seconds or e.g. \"30 seconds\", \"2 hours\"")
	}
	amount, unit, hasUnit := strings.Cut(t, " ")
	unit = strings.TrimSpace(unit)
	v, err := parseAmount(amount)
	if err != nil {
		return 0, fmt.Errorf("duration %q: %v; write e.g. \"30 seconds\", \"2 hours\", \"1 day\" or a number of seconds", s, err)
	}
	per := time.Second
	if hasUnit {
		u := strings.ToLower(unit)
		d, ok := durationUnits[strings.TrimSuffix(u, "s")]
		if !ok {
			return 0, fmt.Errorf("duration %q: unknown unit %q; use second, minute, hour, day, week, month or year (singular or plural)", s, unit)
		}
		per = d
	}
	total := v * float64(per)
	if total > float64(math.MaxInt64) {
		return 0, fmt.Errorf("duration %q is too long", s)
	}
	return time.Duration(total), nil
}

// DurationOf converts a number of seconds to a time.Duration, refusing
// negative, non-finite and overlong values.
func DurationOf(seconds float64) (time.Duration, error) {
	if math.IsNaN(seconds) || seconds < 0 {
		return 0, fmt.Errorf("duration must not be negative")
	}
	if seconds*float64(time.Second) > float64(math.MaxInt64) {
		return 0, fmt.Errorf("duration of %v seconds is too long", seconds)
	}
	return time.Duration(seconds * float64(time.Second)), nil
}

func parseAmount(s string) (float64, error) {
	if s == "" {
		return 0, fmt.Errorf("missing amount")
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; (c < '0' || c > '9') && c != '.' {
			return 0, fmt.Errorf("amount %q is not a non-negative number", s)
		}
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsInf(v, 0) {
		return 0, fmt.Errorf("amount %q is not a number", s)
	}
	return v, nil
}

// Value returns the duration d stands for; see ParseDuration.
func (d Duration) Value() (time.Duration, error) {
	if d.IsText {
		return ParseDuration(d.Text)
	}
	return DurationOf(d.Seconds)
}
