package n8n

import (
	"fmt"
	"strings"
)

// dateJS holds the date helpers of Date & Time (version 2), in UTC: n8n
// keeps Luxon DateTimes in the workflow's time zone, which an item's JSON
// writes as ISO text.
const dateJS = `const $date = (v) => {
  if (v instanceof Date) return new Date(v.getTime());
  if (typeof v === "number") return new Date(v > 1e11 ? v : v * 1000);
  const s = String(v ?? "").trim();
  const t = /^\d+$/.test(s) ? Number(s) * (s.length > 11 ? 1 : 1000) : Date.parse(s);
  if (Number.isNaN(t)) throw new Error("The date '" + s + "' is not valid");
  return new Date(t);
};
const $iso = (d) => d.toISOString().replace(/Z$/, "+00:00");
const $pad = (n, w = 2) => String(n).padStart(w, "0");
const $months = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];
const $days = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];
const $format = (d, f) => f.replace(/'([^']*)'|yyyy|yy|MMMM|MMM|MM|M|dd|d|EEEE|EEE|HH|H|hh|h|mm|m|ss|s|SSS|a|X|x/g, (t, lit) => {
  if (lit !== undefined) return lit;
  const h = d.getUTCHours();
  switch (t) {
    case "yyyy": return String(d.getUTCFullYear());
    case "yy": return String(d.getUTCFullYear()).slice(-2);
    case "MMMM": return $months[d.getUTCMonth()];
    case "MMM": return $months[d.getUTCMonth()].slice(0, 3);
    case "MM": return $pad(d.getUTCMonth() + 1);
    case "M": return String(d.getUTCMonth() + 1);
    case "dd": return $pad(d.getUTCDate());
    case "d": return String(d.getUTCDate());
    case "EEEE": return $days[d.getUTCDay()];
    case "EEE": return $days[d.getUTCDay()].slice(0, 3);
    case "HH": return $pad(h);
    case "H": return String(h);
    case "hh": return $pad(((h + 11) % 12) + 1);
    case "h": return String(((h + 11) % 12) + 1);
    case "mm": return $pad(d.getUTCMinutes());
    case "m": return String(d.getUTCMinutes());
    case "ss": return $pad(d.getUTCSeconds());
    case "s": return String(d.getUTCSeconds());
    case "SSS": return $pad(d.getUTCMilliseconds(), 3);
    case "a": return h < 12 ? "AM" : "PM";
    case "X": return String(Math.floor(d.getTime() / 1000));
    case "x": return String(d.getTime());
  }
  return t;
});
const $add = (d, unit, n) => {
  const r = new Date(d.getTime());
  switch (unit) {
    case "years": r.setUTCFullYear(r.getUTCFullYear() + n); break;
    case "quarters": r.setUTCMonth(r.getUTCMonth() + 3 * n); break;
    case "months": r.setUTCMonth(r.getUTCMonth() + n); break;
    case "weeks": r.setUTCDate(r.getUTCDate() + 7 * n); break;
    case "days": r.setUTCDate(r.getUTCDate() + n); break;
    case "hours": r.setTime(r.getTime() + n * 3600000); break;
    case "minutes": r.setTime(r.getTime() + n * 60000); break;
    case "seconds": r.setTime(r.getTime() + n * 1000); break;
    case "milliseconds": r.setTime(r.getTime() + n); break;
    default: throw new Error("unknown time unit " + unit);
  }
  return r;
};
`

// dateTimeNode converts Date & Time version 2's common operations.
func (c *converter) dateTimeNode(ctx *nodeCtx) emitted {
	n := ctx.node
	p := n.Parameters
	if n.TypeVersion < 2 {
		return c.throwing(ctx, "Date & Time version 1 (Moment.js formats) is not converted; version 2 is")
	}
	u := &uses{}
	t := c.translate(u)
	op := str(p["operation"])
	if op == "" {
		op = "getCurrentDate"
	}
	opts, _ := p["options"].(map[string]any)
	if opts["timezone"] != nil || c.wf.Settings.Timezone != "" && c.wf.Settings.Timezone != "UTC" {
		c.approximate(n.Name, "dates are computed and written in UTC (n8n: the workflow's or the option's time zone)")
	}
	out := func(def string) string {
		if v := p["outputFieldName"]; v != nil {
			return t.param(v)
		}
		return jsString(def)
	}
	var value string
	switch op {
	case "getCurrentDate":
		value = "$iso(new Date())"
		if inc, ok := p["includeTime"].(bool); ok && !inc {
			value = "$iso(new Date(new Date().setUTCHours(0, 0, 0, 0)))"
		}
		value = fmt.Sprintf("json[%s] = %s;", out("currentDate"), value)
	case "addToDate", "subtractFromDate":
		sign := ""
		if op == "subtractFromDate" {
			sign = "-"
		}
		unit := str(p["timeUnit"])
		if unit == "" {
			unit = "days"
		}
		value = fmt.Sprintf("json[%s] = $iso($add($date(%s), %s, %sNumber(%s)));", out("newDate"), t.param(p["magnitude"]), jsString(unit), sign, t.param(p["duration"]))
	case "formatDate":
		format := str(p["format"])
		f := jsString(format)
		if format == "custom" {
			f = t.param(p["customFormat"])
		}
		if opts["fromFormat"] != nil {
			c.approximate(n.Name, "the \"from date format\" option is not converted: the date is parsed as ISO text")
		}
		value = fmt.Sprintf("json[%s] = $format($date(%s), %s);", out("formattedDate"), t.param(p["date"]), f)
	case "extractDate":
		part := str(p["part"])
		code := map[string]string{"year": "d.getUTCFullYear()", "month": "d.getUTCMonth() + 1", "week": "Math.ceil(((d - Date.UTC(d.getUTCFullYear(), 0, 1)) / 86400000 + new Date(Date.UTC(d.getUTCFullYear(), 0, 1)).getUTCDay() + 1) / 7)",
			"day": "d.getUTCDate()", "hour": "d.getUTCHours()", "minute": "d.getUTCMinutes()", "second": "d.getUTCSeconds()"}[part]
		if code == "" {
			return c.throwing(ctx, "extracting the date part "+part+" is not converted")
		}
		value = fmt.Sprintf("{ const d = $date(%s); json[%s] = %s; }", t.param(p["date"]), out("datePart"), code)
	case "getTimeBetweenDates":
		var units []string
		for _, e := range asList(p["units"]) {
			units = append(units, jsString(str(e)))
		}
		if len(units) == 0 {
			units = []string{`"day"`}
		}
		value = fmt.Sprintf("{ const ms = $date(%s) - $date(%s); const size = { year: 31536000000, month: 2592000000, week: 604800000, day: 86400000, hour: 3600000, minute: 60000, second: 1000, millisecond: 1 }; const diff = {}; let rest = ms; for (const u of [%s].sort((x, y) => size[y] - size[x])) { const k = Math.trunc(rest / size[u]); diff[u + \"s\"] = k; rest -= k * size[u]; } json[%s] = diff; }",
			t.param(p["endDate"]), t.param(p["startDate"]), strings.Join(units, ", "), out("timeDifference"))
		c.approximate(n.Name, "the time between dates counts a month as 30 days and a year as 365 (n8n: calendar months and years)")
	default:
		return c.throwing(ctx, "the Date & Time operation "+op+" is not converted")
	}
	var b strings.Builder
	b.WriteString(dateJS)
	b.WriteString("return items.map((item, $itemIndex) => {\n")
	b.WriteString("  if (typeof rt !== \"undefined\") rt.i = $itemIndex;\n  const $json = item.json;\n")
	if isTrue(opts["includeInputFields"]) || n.TypeVersion < 2.1 && opts["includeInputFields"] == nil {
		b.WriteString("  const json = structuredClone(item.json);\n")
	} else {
		b.WriteString("  const json = {};\n")
	}
	fmt.Fprintf(&b, "  %s\n", value)
	b.WriteString("  return { json, pairedItem: { item: $itemIndex } };\n});\n")
	return c.simple(ctx, b.String(), u, 0)
}
