// Calendar ticks for a history's time axis: whole days, weeks, months, quarters or years,
// whichever gives about `count` ticks over the span, printed as "Mar 5" or "Mar 2026". Pure
// layout (UTC, so the server's and the browser's renderings agree).

const DAY = 86_400_000;

export interface DateAxis {
  ticks: number[];
  format: (t: number) => string;
}

const monthName = (t: number) => new Date(t).toLocaleString("en", { month: "short", timeZone: "UTC" });

export function dateAxis(from: number, to: number, count = 7): DateAxis {
  const span = Math.max(to - from, 1);
  const days = span / DAY;
  if (days <= count * 7) {
    const step = [1, 2, 7].find((s) => days / s <= count) ?? 7;
    const first = Math.ceil(from / DAY) * DAY;
    const ticks: number[] = [];
    for (let t = first; t <= to; t += step * DAY) ticks.push(t);
    return { ticks, format: (t) => `${monthName(t)} ${new Date(t).getUTCDate()}` };
  }
  const months = days / 30.44;
  const step = [1, 2, 3, 6, 12, 24, 60].find((s) => months / s <= count) ?? 120;
  const start = new Date(from);
  const year = start.getUTCFullYear();
  let month = start.getUTCMonth() + 1; // the first month boundary after `from`
  month = Math.ceil(month / step) * step;
  const ticks: number[] = [];
  for (;;) {
    const t = Date.UTC(year + Math.floor(month / 12), month % 12, 1);
    if (t > to) break;
    if (t >= from) ticks.push(t);
    month += step;
  }
  // The year on the first tick and on every January, so the axis is dated wherever it starts.
  return {
    ticks,
    format: (t) => (t === ticks[0] || new Date(t).getUTCMonth() === 0 || step >= 12 ? `${monthName(t)} ${new Date(t).getUTCFullYear()}` : monthName(t)),
  };
}

/** A commit's short SHA, as git prints it. */
export const shortSha = (sha: string) => (/^[0-9a-f]{12,}$/i.test(sha) ? sha.slice(0, 8) : sha);

/** "2026-03-05 14:02 UTC" */
export const formatUtc = (iso: string) => `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;

/** The commit's page in the project's repository (GitHub, GitLab, Gitea and Bitbucket all use /commit/<sha>). */
export const commitUrl = (repositoryUrl: string | null, sha: string) => (repositoryUrl ? `${repositoryUrl}/commit/${encodeURIComponent(sha)}` : null);
