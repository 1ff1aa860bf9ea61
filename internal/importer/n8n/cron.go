package n8n

import (
	"fmt"
	"strconv"
	"strings"
)

// cronOf converts the schedule of a Schedule Trigger, Cron or Interval node
// to one 5-field cron expression (UTC), with notes on what differs.
func cronOf(n *Node) (string, []string) {
	var notes []string
	p := n.Parameters
	tz := "the workflow's time zone"
	var list []map[string]any
	var conv func(map[string]any) (string, string)
	switch n.shortType() {
	case "scheduleTrigger":
		rule, _ := p["rule"].(map[string]any)
		for _, e := range asList(rule["interval"]) {
			if m, ok := e.(map[string]any); ok {
				list = append(list, m)
			}
		}
		if len(list) == 0 {
			list = []map[string]any{{}}
		}
		conv = scheduleRule
	case "cron":
		tt, _ := p["triggerTimes"].(map[string]any)
		for _, e := range asList(tt["item"]) {
			if m, ok := e.(map[string]any); ok {
				list = append(list, m)
			}
		}
		if len(list) == 0 {
			return "0 0 * * *", []string{"the Cron node has no trigger time; the import runs it daily at midnight UTC"}
		}
		conv = legacyCron
	case "interval":
		v, _ := p["interval"].(float64)
		if v < 1 {
			v = 1
		}
		unit := str(p["unit"])
		if unit == "" {
			unit = "seconds"
		}
		list = []map[string]any{{"field": unit, unit + "Interval": v}}
		conv = scheduleRule
	}
	expr, note := conv(list[0])
	if note != "" {
		notes = append(notes, note)
	}
	if len(list) > 1 {
		notes = append(notes, fmt.Sprintf("the node has %d schedules; an edgeflow cron trigger has one: the first (%s) is kept", len(list), expr))
	}
	notes = append(notes, "the cron expression runs in UTC (n8n: "+tz+")")
	return expr, notes
}

func asList(v any) []any {
	l, _ := v.([]any)
	return l
}

func num(v any, def int) int {
	switch x := v.(type) {
	case float64:
		return int(x)
	case string:
		if i, err := strconv.Atoi(strings.TrimSpace(x)); err == nil {
			return i
		}
	}
	return def
}

// scheduleRule converts one interval of a Schedule Trigger.
func scheduleRule(r map[string]any) (string, string) {
	field := str(r["field"])
	if field == "" {
		field = "days"
	}
	hour := num(r["triggerAtHour"], 0)
	minute := num(r["triggerAtMinute"], 0)
	every := func(key string) int {
		v := num(r[key], 1)
		if v < 1 {
			v = 1
		}
		return v
	}
	step := func(n int) string {
		if n <= 1 {
			return "*"
		}
		return "*/" + strconv.Itoa(n)
	}
	switch field {
	case "seconds":
		return "* * * * *", "cron runs at most once a minute: the schedule every few seconds runs every minute"
	case "minutes":
		return step(every("minutesInterval")) + " * * * *", ""
	case "hours":
		return fmt.Sprintf("%d %s * * *", minute, step(every("hoursInterval"))), ""
	case "days":
		return fmt.Sprintf("%d %d %s * *", minute, hour, step(every("daysInterval"))), ""
	case "weeks":
		var days []string
		for _, d := range asList(r["triggerAtDay"]) {
			days = append(days, strconv.Itoa(num(d, 0)))
		}
		if len(days) == 0 {
			days = []string{"0"}
		}
		note := ""
		if every("weeksInterval") > 1 {
			note = "every few weeks is not a cron schedule: the import runs every week"
		}
		return fmt.Sprintf("%d %d * * %s", minute, hour, strings.Join(days, ",")), note
	case "months":
		return fmt.Sprintf("%d %d %d %s *", minute, hour, num(r["triggerAtDayOfMonth"], 1), step(every("monthsInterval"))), ""
	case "cronExpression":
		return cronFields(str(r["expression"]))
	}
	return "0 0 * * *", fmt.Sprintf("the schedule field %q is not converted; the import runs daily at midnight", field)
}

// legacyCron converts one trigger time of the legacy Cron node.
func legacyCron(r map[string]any) (string, string) {
	hour := num(r["hour"], 14)
	minute := num(r["minute"], 0)
	switch str(r["mode"]) {
	case "everyMinute":
		return "* * * * *", ""
	case "everyHour":
		return fmt.Sprintf("%d * * * *", minute), ""
	case "", "everyDay":
		return fmt.Sprintf("%d %d * * *", minute, hour), ""
	case "everyWeek":
		return fmt.Sprintf("%d %d * * %d", minute, hour, num(r["weekday"], 1)), ""
	case "everyMonth":
		return fmt.Sprintf("%d %d %d * *", minute, hour, num(r["dayOfMonth"], 1)), ""
	case "everyX":
		v := num(r["value"], 2)
		if v < 1 {
			v = 1
		}
		if str(r["unit"]) == "hours" {
			return fmt.Sprintf("0 */%d * * *", v), ""
		}
		return fmt.Sprintf("*/%d * * * *", v), ""
	case "custom":
		return cronFields(str(r["cronExpression"]))
	}
	return "0 0 * * *", fmt.Sprintf("the Cron mode %q is not converted; the import runs daily at midnight", str(r["mode"]))
}

// cronFields takes a 5-field expression as it is and a 6-field one (with
// seconds first, as n8n allows) without its seconds.
func cronFields(expr string) (string, string) {
	f := strings.Fields(strings.TrimPrefix(expr, "="))
	switch len(f) {
	case 5:
		return strings.Join(f, " "), ""
	case 6:
		note := ""
		if f[0] != "0" && f[0] != "*" {
			note = "the cron expression's seconds field is dropped (edgeflow's cron has minutes at best)"
		}
		if f[0] == "*" {
			note = "the cron expression runs every second in n8n; edgeflow's cron runs every minute at most"
		}
		return strings.Join(f[1:], " "), note
	}
	return "0 0 * * *", fmt.Sprintf("the cron expression %q is not converted; the import runs daily at midnight", expr)
}
