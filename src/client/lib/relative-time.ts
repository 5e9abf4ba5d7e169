const MINUTE = 60;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** Largest first: a post is "2 weeks ago", not "14 days ago". Months and years are approximate. */
const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 365 * DAY],
  ['month', 30 * DAY],
  ['week', 7 * DAY],
  ['day', DAY],
  ['hour', HOUR],
  ['minute', MINUTE],
];

const format = new Intl.RelativeTimeFormat('en', { numeric: 'auto' });

/**
 * How long ago `then` was, as a person says it: "now", "5 minutes ago", "3 hours ago",
 * "yesterday", "2 days ago". A time slightly ahead of this device's clock (skew) reads "now".
 */
export function timeAgo(then: Date, now: Date = new Date()): string {
  const seconds = Math.max(0, Math.round((now.getTime() - then.getTime()) / 1000));
  for (const [unit, size] of UNITS) {
    if (seconds >= size) return format.format(-Math.floor(seconds / size), unit);
  }
  return format.format(0, 'second');
}
