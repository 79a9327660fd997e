const DAY_MS = 86_400_000;
const pad2 = (n: number) => (n < 10 ? `0${n}` : `${n}`);
const pad3 = (n: number) => (n < 10 ? `00${n}` : n < 100 ? `0${n}` : `${n}`);

/**
 * Date.prototype.toISOString for epoch milliseconds, made for tens of thousands of dates in
 * one answer: the date part is formatted once per day and kept, the time part is arithmetic.
 * toISOString itself costs about a microsecond a call (a fifth of the overview's server time).
 */
export function isoFormatter(): (ms: number) => string {
  const days = new Map<number, string>();
  return (value) => {
    const ms = Math.trunc(value); // as Date does: towards zero
    const day = Math.floor(ms / DAY_MS);
    let prefix = days.get(day);
    if (prefix === undefined) {
      const iso = new Date(day * DAY_MS).toISOString();
      prefix = iso.slice(0, iso.indexOf("T") + 1);
      days.set(day, prefix);
    }
    let rest = ms - day * DAY_MS;
    const h = Math.floor(rest / 3_600_000);
    rest -= h * 3_600_000;
    const m = Math.floor(rest / 60_000);
    rest -= m * 60_000;
    const s = Math.floor(rest / 1000);
    return `${prefix}${pad2(h)}:${pad2(m)}:${pad2(s)}.${pad3(rest - s * 1000)}Z`;
  };
}
