// `npm run bench:pages [-- --rounds R]`: the pages in headless Chromium over the 200k-fill demo (issue 25). For
// the board, the wallet with the most positions and the market with the most fills, each in a fresh browser
// context (nothing cached): first contentful paint, time to a usable table, time until its charts are drawn, how
// long uPlot took for each chart and how many points it drew, and the longest the main thread was blocked (a
// 10 ms heartbeat kept waiting: over 50 ms is jank; a control run blocks it for 100 ms to show the measure sees
// it). Then uPlot alone, through the page's own chart module, drawing 10,000 and 50,000 points. The ceiling: in
// the same run, the same browser navigating to a bare file of the same server and painting it. Medians of R
// rounds, the pages interleaved.
import { parseArgs } from 'node:util';
import { chromium, type Browser } from 'playwright-core';
import { startServer } from '../cli/commands/serveCommand.js';
import { findChromium } from '../test/fixtures/chromium.js';
import { benchDemoVenue, benchSubjects } from './demoVenue.js';
import { recordBenchFigures } from './recordBenchFigures.js';

const { values } = parseArgs({ options: { rounds: { type: 'string' } } });
const rounds = Number(values.rounds ?? 5);
const executablePath = findChromium();
if (executablePath === null) throw new Error('no Chromium: apt-get install chromium-headless-shell');

const { data, key } = benchDemoVenue();

interface Load {
  paint: number;
  table: number;
  charts: number;
  chartMs: Record<string, number>;
  points: Record<string, number>;
  longest: number;
}

/**
 * Records, from the start of the page (before any script of its own), the longest time the main thread kept a
 * 10 ms heartbeat waiting: that long, no input was handled and no frame drawn. Over 50 ms is jank a user sees.
 */
const OBSERVE_BLOCKING = () => {
  const w = globalThis as any;
  w.longestBlock = 0;
  let last = performance.now();
  w.setInterval(() => {
    const now = performance.now();
    w.longestBlock = Math.max(w.longestBlock, now - last - 10);
    last = now;
  }, 10);
};

async function loadPage(browser: Browser, url: string, charts: string[]): Promise<Load> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 1000 } });
  await context.addInitScript((k) => (globalThis as any).localStorage.setItem('tally.apiKey', k), key);
  await context.addInitScript(OBSERVE_BLOCKING);
  const page = await context.newPage();
  await page.goto(url);
  const table = await page.waitForFunction(() => {
    const d = (globalThis as any).document;
    return d.querySelector('[data-state="ready"] tbody tr') ? performance.now() : false;
  });
  const tableAt = (await table.jsonValue()) as number;
  for (const chart of charts) await page.waitForSelector(`[data-chart="${chart}"] canvas`, { timeout: 60_000 });
  const measured = await page.evaluate(() => {
    const w = globalThis as any;
    const drawn = performance.getEntriesByType('measure').filter((m) => m.name.startsWith('chart:'));
    return {
      paint: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? NaN,
      charts: Math.max(0, ...drawn.map((m) => m.startTime + m.duration)),
      chartMs: Object.fromEntries(drawn.map((m) => [m.name.slice(6), m.duration])),
      points: Object.fromEntries(drawn.map((m) => [m.name.slice(6), (m as any).detail.points])),
      longest: w.longestBlock,
    };
  });
  await context.close();
  return { ...measured, table: tableAt };
}

/** Navigation to a bare file and its paint: the browser's own floor in this run. */
async function loadBare(browser: Browser, url: string): Promise<number> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(url);
  const painted = await page.evaluate(
    () =>
      new Promise<number>((resolve) => {
        const frame = (globalThis as any).requestAnimationFrame;
        frame(() => frame(() => resolve(performance.now())));
      }),
  );
  await context.close();
  return painted;
}

/** uPlot drawing `points` through the page's chart module, in a page of the server: the draw's milliseconds. */
async function drawSynthetic(browser: Browser, base: string, points: number): Promise<{ ms: number; longest: number }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 1000 } });
  await context.addInitScript(OBSERVE_BLOCKING);
  const page = await context.newPage();
  // The app shell without a key: its import map resolves the modules' imports, and the key form asks for nothing.
  await page.goto(`${base}/`);
  const result = await page.evaluate(async (n) => {
    const w = globalThis as any;
    const { render } = await import('/assets/preact.mjs' as string);
    const { html } = await import('/assets/html.js' as string);
    const { LineChart } = await import('/assets/lineChart.js' as string);
    const times = Array.from({ length: n }, (_, i) => 1_790_000_000 + i * 60);
    const values = times.map((_, i) => 0.5 + 0.4 * Math.sin(i / 500) + (i % 7) / 100);
    const box = w.document.createElement('div');
    w.document.body.replaceChildren(box);
    // Only the draw's own blocking: the page's load is over.
    w.longestBlock = 0;
    render(html`<${LineChart} name="synthetic" times=${times} series=${[{ label: 'p', values }]} />`, box);
    while (performance.getEntriesByName('chart:synthetic').length === 0) {
      await new Promise((resolve) => w.requestAnimationFrame(resolve));
    }
    await new Promise((resolve) => w.requestAnimationFrame(() => w.requestAnimationFrame(resolve)));
    const [measure] = performance.getEntriesByName('chart:synthetic');
    return { ms: measure!.duration, longest: w.longestBlock };
  }, points);
  await context.close();
  return result;
}

/** The blocking measure's control: a page that blocks its main thread for 100 ms, R times. */
async function busyLoops(browser: Browser, base: string): Promise<number[]> {
  const seen = [];
  for (let round = 0; round < rounds; round++) {
    const context = await browser.newContext();
    await context.addInitScript(OBSERVE_BLOCKING);
    const page = await context.newPage();
    await page.goto(`${base}/`);
    seen.push(
      await page.evaluate(async () => {
        const w = globalThis as any;
        const until = performance.now() + 100;
        while (performance.now() < until);
        await new Promise((resolve) => setTimeout(resolve, 50));
        return w.longestBlock;
      }),
    );
    await context.close();
  }
  return seen;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const ms = (value: number) => `${Math.round(value)} ms`;

const { wallet, market, marketFills } = await benchSubjects(data, Infinity);
const server = await startServer({ data, host: '127.0.0.1', port: 0 });
const base = `http://127.0.0.1:${server.port}`;
const browser = await chromium.launch({ executablePath });
const pages = [
  { name: 'board', url: `${base}/`, charts: [] },
  { name: 'wallet', url: `${base}/wallet/${wallet}`, charts: ['pnl'] },
  {
    name: `market (${marketFills.toLocaleString('en-US')} fills)`,
    url: `${base}/market/${market}`,
    charts: ['price', 'volume'],
  },
];
const loads = new Map<string, Load[]>(pages.map((p) => [p.name, []]));
const bare: number[] = [];
try {
  // A first load of each page warms the server's answer cache and the browser's compiled code alike.
  for (const page of pages) await loadPage(browser, page.url, page.charts);
  for (let round = 0; round < rounds; round++) {
    bare.push(await loadBare(browser, `${base}/assets/favicon.svg`));
    for (const page of pages) loads.get(page.name)!.push(await loadPage(browser, page.url, page.charts));
  }
  const floor = median(bare);
  const rows: Array<[string, string, string]> = [[`ceiling: a bare file navigated to and painted`, ms(floor), '1.00x']];
  for (const page of pages) {
    const runs = loads.get(page.name)!;
    const table = median(runs.map((r) => r.table));
    rows.push([`${page.name}: first contentful paint`, ms(median(runs.map((r) => r.paint))), '']);
    rows.push([`${page.name}: usable table`, ms(table), `${(table / floor).toFixed(1)}x`]);
    for (const chart of page.charts) {
      rows.push([
        `${page.name}: chart ${chart}, ${runs[0]!.points[chart]} points drawn in`,
        ms(median(runs.map((r) => r.chartMs[chart]!))),
        '',
      ]);
    }
    if (page.charts.length > 0) rows.push([`${page.name}: charts drawn`, ms(median(runs.map((r) => r.charts))), '']);
    rows.push([`${page.name}: longest main-thread block`, ms(median(runs.map((r) => r.longest))), '']);
  }
  rows.push(['control: a 100 ms busy loop, seen as a block of', ms(median(await busyLoops(browser, base))), '']);
  for (const points of [10_000, 50_000]) {
    const draws = [];
    for (let round = 0; round < rounds; round++) draws.push(await drawSynthetic(browser, base, points));
    rows.push([
      `uPlot through the chart module, ${points.toLocaleString('en-US')} points`,
      ms(median(draws.map((d) => d.ms))),
      '',
    ]);
    rows.push([`  longest main-thread block meanwhile`, ms(median(draws.map((d) => d.longest))), '']);
  }
  for (const [metric, value, ratio] of rows) console.log(`${metric.padEnd(64)} ${value.padStart(8)} ${ratio}`);
  recordBenchFigures('pages (npm run bench:pages)', rows);
} finally {
  await browser.close();
  await server.closeAll();
}
