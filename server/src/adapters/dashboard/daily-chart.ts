import type { DailyTotal } from '../../ports/repositories.js';
import { formatBaht, formatCalendarDate, type PageLanguage } from '../pages/people-formats.js';

const WIDTH = 480;
const HEIGHT = 180;
const LEFT = 8;
const BOTTOM = 22;
const TOP = 18;

const escapeXml = (text: string): string => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * The daily succeeded amounts as an inline SVG bar chart, drawn on the server (no script, no other origin). It is a
 * picture for sighted readers: the same figures follow it as a table, so the SVG itself is hidden from screen readers.
 */
export function dailyChart(lang: PageLanguage, days: readonly DailyTotal[]): string {
  const max = Math.max(1, ...days.map((d) => d.amount));
  const slot = (WIDTH - LEFT) / Math.max(1, days.length);
  const plot = HEIGHT - TOP - BOTTOM;
  const bars = days
    .map((d, i) => {
      const h = d.amount === 0 ? 0 : Math.max(2, Math.round((d.amount / max) * plot));
      const x = LEFT + i * slot + slot * 0.15;
      return `<rect class="bar" x="${x.toFixed(1)}" y="${TOP + plot - h}" width="${(slot * 0.7).toFixed(1)}" height="${h}"><title>${escapeXml(`${formatCalendarDate(lang, d.date)}: ${formatBaht(d.amount)}`)}</title></rect>`;
    })
    .join('');
  // The first, middle and last day under the axis; the highest amount above it.
  const labelled = [0, Math.floor(days.length / 2), days.length - 1].filter((i, k, all) => days[i] && all.indexOf(i) === k);
  const labels = labelled
    .map((i) => {
      const x = LEFT + i * slot + slot / 2;
      const anchor = i === 0 ? 'start' : i === days.length - 1 ? 'end' : 'middle';
      return `<text x="${(i === 0 ? LEFT : i === days.length - 1 ? WIDTH : x).toFixed(1)}" y="${HEIGHT - 6}" text-anchor="${anchor}">${escapeXml(formatCalendarDate(lang, days[i]!.date, { year: false }))}</text>`;
    })
    .join('');
  return (
    `<svg class="daily-chart" viewBox="0 0 ${WIDTH} ${HEIGHT}" width="100%" preserveAspectRatio="xMidYMid meet" aria-hidden="true" focusable="false">` +
    `<text x="${LEFT}" y="12">${escapeXml(formatBaht(max === 1 ? 0 : max))}</text>` +
    `<line class="axis" x1="${LEFT}" y1="${TOP + plot}" x2="${WIDTH}" y2="${TOP + plot}"/>${bars}${labels}</svg>`
  );
}
