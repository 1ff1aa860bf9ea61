// Cron expressions as Cloudflare accepts them for Workflow schedules and Cron Triggers: five fields (minute,
// hour, day of month, month, day of week) in UTC, each `*`, a number, a range `a-b`, a step `*/n` or `a-b/n`,
// or a comma list of those; months and days of week also by name (JAN, MON). Day of week 0 and 7 are Sunday.
// Like standard cron, when both day fields are restricted a time matches if either of them does.

const FIELDS = [
  { name: "minute", min: 0, max: 59 },
  { name: "hour", min: 0, max: 23 },
  { name: "day of month", min: 1, max: 31 },
  {
    name: "month",
    min: 1,
    max: 12,
    names: ["JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"],
  },
  { name: "day of week", min: 0, max: 7, names: ["SUN", "MON", "TUE", "WED", "THU", "FRI", "SAT"] },
];

function value(text, field) {
  const up = text.toUpperCase();
  if (field.names) {
    const i = field.names.indexOf(up);
    if (i >= 0) return field.min === 1 ? i + 1 : i;
  }
  if (!/^\d+$/.test(text)) throw new Error(`${field.name}: '${text}' is not a number`);
  const n = Number(text);
  if (n < field.min || n > field.max) throw new Error(`${field.name}: ${n} is outside ${field.min}-${field.max}`);
  return n;
}

function parseField(text, field) {
  const set = new Set();
  for (const part of text.split(",")) {
    if (part === "") throw new Error(`${field.name}: empty list item`);
    const [range, stepText, extra] = part.split("/");
    if (extra !== undefined) throw new Error(`${field.name}: '${part}' has two steps`);
    let step = 1;
    if (stepText !== undefined) {
      if (!/^\d+$/.test(stepText) || Number(stepText) === 0) throw new Error(`${field.name}: bad step '${stepText}'`);
      step = Number(stepText);
    }
    let lo;
    let hi;
    if (range === "*") {
      lo = field.min;
      hi = field.max === 7 ? 6 : field.max;
    } else if (range.includes("-")) {
      const [a, b] = range.split("-");
      lo = value(a, field);
      hi = value(b, field);
      if (lo > hi) throw new Error(`${field.name}: range ${range} runs backwards`);
    } else {
      lo = value(range, field);
      hi = stepText !== undefined ? (field.max === 7 ? 6 : field.max) : lo;
    }
    for (let v = lo; v <= hi; v += step) set.add(field.max === 7 && v === 7 ? 0 : v);
  }
  return set;
}

// parseCron returns a matcher for the expression or throws an Error saying what is wrong.
export function parseCron(expr) {
  if (typeof expr !== "string") throw new Error("cron must be a string");
  const parts = expr.trim().split(/\s+/);
  if (parts.length !== 5) throw new Error(`'${expr}' must have 5 fields (minute hour day-of-month month day-of-week)`);
  const sets = parts.map((p, i) => parseField(p, FIELDS[i]));
  const domStar = parts[2] === "*";
  const dowStar = parts[4] === "*";
  return {
    expr,
    matches(date) {
      if (!sets[0].has(date.getUTCMinutes()) || !sets[1].has(date.getUTCHours())) return false;
      if (!sets[3].has(date.getUTCMonth() + 1)) return false;
      const dom = sets[2].has(date.getUTCDate());
      const dow = sets[4].has(date.getUTCDay());
      if (domStar && dowStar) return true;
      if (domStar) return dow;
      if (dowStar) return dom;
      return dom || dow;
    },
  };
}

// Scheduler calls tick(minuteDate) at the start of every UTC minute until stopped.
export class Scheduler {
  constructor(tick) {
    this.tick = tick;
    this.timer = null;
  }
  start() {
    const arm = () => {
      const nowMs = Date.now();
      const next = Math.floor(nowMs / 60000) * 60000 + 60000;
      this.timer = setTimeout(
        () => {
          arm();
          Promise.resolve(this.tick(new Date(next))).catch(() => {});
        },
        next - nowMs + 5,
      );
      this.timer.unref();
    };
    arm();
  }
  stop() {
    clearTimeout(this.timer);
  }
}
