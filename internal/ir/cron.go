package ir

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Cron is a parsed 5-field cron expression. Each field is a bit set of the
// values it matches (bit v for value v).
type Cron struct {
	Minute, Hour, DayOfMonth, Month, DayOfWeek uint64
}

type cronField struct {
	name     string
	min, max int
	names    []string // names[i] stands for min+i
}

var cronFields = []cronField{
	{name: "minute", min: 0, max: 59},
	{name: "hour", min: 0, max: 23},
	{name: "day of month", min: 1, max: 31},
	{name: "month", min: 1, max: 12, names: []string{"JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"}},
	{name: "day of week", min: 0, max: 7, names: []string{"SUN", "MON", "TUE", "WED", "THU", "FRI", "SAT"}},
}

// ParseCron parses a 5-field cron expression (minute hour day-of-month month
// day-of-week) as Cloudflare cron triggers accept it: "*", values, ranges
// "a-b", steps "*/n" and "a-b/n", lists "a,b", month names JAN-DEC and day
// names SUN-SAT (case-insensitive), day of week 0-7 with 0 and 7 both Sunday.
// "?" is accepted as "*" in the day fields. The error names the field.
func ParseCron(expr string) (Cron, error) {
	parts := strings.Fields(expr)
	if len(parts) != 5 {
		return Cron{}, fmt.Errorf("cron expression %q has %d fields; want 5: minute hour day-of-month month day-of-week", expr, len(parts))
	}
	var sets [5]uint64
	for i, p := range parts {
		set, err := parseCronField(p, cronFields[i])
		if err != nil {
			return Cron{}, fmt.Errorf("cron expression %q: %s field: %v", expr, cronFields[i].name, err)
		}
		sets[i] = set
	}
	if sets[4]&(1<<7) != 0 {
		sets[4] = sets[4]&^(1<<7) | 1
	}
	return Cron{Minute: sets[0], Hour: sets[1], DayOfMonth: sets[2], Month: sets[3], DayOfWeek: sets[4]}, nil
}

func parseCronField(s string, f cronField) (uint64, error) {
	var set uint64
	for item := range strings.SplitSeq(s, ",") {
		if item == "" {
			return 0, fmt.Errorf("empty list item in %q", s)
		}
		rng, stepText, hasStep := strings.Cut(item, "/")
		step := 1
		if hasStep {
			n, err := strconv.Atoi(stepText)
			if err != nil || n < 1 || n > f.max {
				return 0, fmt.Errorf("step %q must be a number from 1 to %d", stepText, f.max)
			}
			step = n
		}
		lo, hi := f.min, f.max
		switch {
		case rng == "*" || (rng == "?" && (f.name == "day of month" || f.name == "day of week")):
		default:
			a, b, isRange := strings.Cut(rng, "-")
			var err error
			if lo, err = cronValue(a, f); err != nil {
				return 0, err
			}
			hi = lo
			if isRange {
				if hi, err = cronValue(b, f); err != nil {
					return 0, err
				}
				if hi < lo {
					return 0, fmt.Errorf("range %q runs backwards", rng)
				}
			} else if hasStep {
				hi = f.max // "a/n" means from a to the end
			}
		}
		for v := lo; v <= hi; v += step {
			set |= 1 << uint(v)
		}
	}
	return set, nil
}

func cronValue(s string, f cronField) (int, error) {
	if i := slices.Index(f.names, strings.ToUpper(s)); i >= 0 && s != "" {
		return f.min + i, nil
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < f.min || n > f.max {
		hint := ""
		if len(f.names) > 0 {
			hint = fmt.Sprintf(" or a name %s-%s", f.names[0], f.names[len(f.names)-1])
		}
		return 0, fmt.Errorf("%q is not a value from %d to %d%s", s, f.min, f.max, hint)
	}
	return n, nil
}

func sortedUnique(s []string) []string {
	slices.Sort(s)
	return slices.Compact(s)
}
