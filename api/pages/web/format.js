// How figures read on the pages: USD to the cent, prices to 4 decimals, times in UTC. The API's numbers are shown
// as given, rounded only here.
const usdFormat = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
const sharesFormat = new Intl.NumberFormat('en-US', { minimumFractionDigits: 0, maximumFractionDigits: 2 });
const countFormat = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

const blank = (value) => value === null || value === undefined || Number.isNaN(value);

export const usd = (value) => (blank(value) ? '–' : `${value < 0 ? '−' : ''}$${usdFormat.format(Math.abs(value))}`);
/** USD for a chart's axis: `$12.3k`, `−$1.2M`. */
const compactFormat = new Intl.NumberFormat('en-US', { notation: 'compact', maximumFractionDigits: 1 });
export const axisUsd = (value) => `${value < 0 ? '−' : ''}$${compactFormat.format(Math.abs(value))}`;
export const shares = (value) => (blank(value) ? '–' : sharesFormat.format(value));
export const count = (value) => (blank(value) ? '–' : countFormat.format(value));
export const price = (value) => (blank(value) ? '–' : value.toFixed(4));
/** A percentage the API gives in percent (25 is 25%), or a ratio times 100 (`ratio`). */
export const percent = (value, ratio = false) => (blank(value) ? '–' : `${(ratio ? value * 100 : value).toFixed(1)}%`);

/** Unix seconds as `2026-10-31 12:03 UTC`. */
export function time(seconds) {
  if (blank(seconds) || seconds === 0) return '–';
  return `${new Date(seconds * 1000).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

export const shortId = (id) => (id ? `${id.slice(0, 6)}…${id.slice(-4)}` : '–');

/** The class that colours a signed figure. */
export const sign = (value) => (blank(value) || value === 0 ? '' : value > 0 ? 'up' : 'down');
