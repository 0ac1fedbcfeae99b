// The pages in a real headless Chromium (issue 25), against the real server on 127.0.0.1 over a small demo: each
// page loads with no console error and asks nothing of another host; its tables hold the rows the API gives for
// the same wallet or market (found by data-key); its charts are drawn (canvas pixels in the series' colours);
// paging, the window toggle, the board's choices and the search change what is shown; a missing or refused key
// brings the key form; the busiest events show their titles; at phone width only tables scroll sideways; a bad
// address is one error. Prints the time to a usable table per page; screenshots go to .tap/screenshots/.
import t, { type Test } from 'tap';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { startServer } from '../../cli/commands/serveCommand.js';
import { findChromium } from '../fixtures/chromium.js';
import { busiestMarkets, busiestWallet, createDemoData } from '../fixtures/demoData.js';
import { apiClient } from '../fixtures/apiClient.js';
import { runTally } from '../fixtures/runTally.js';

const SHOTS = join('.tap', 'screenshots');
const tradeKey = (x: any) => `${x.ts},${x.block},${x.logIndex},${x.wallet}`;

const executable = findChromium();
if (executable === null) {
  // Under CI the browser is part of the install (npm's pretest step); elsewhere it may be missing.
  if (process.env.CI) t.fail('no Chromium: the pretest step (test/installSystemPackages.ts) could not install one');
  else
    t.test(
      'the pages in a browser',
      { skip: 'no Chromium installed (apt-get install chromium-headless-shell)' },
      () => {},
    );
} else {
  await browserTests(executable);
}

async function browserTests(executablePath: string) {
  const { data, key, inputs } = await createDemoData(4_000, 12);
  const profiles = runTally(['profiles', '--data', data, '--file', join(inputs.dir, 'inputs', 'profiles.json')]);
  if (profiles.code !== 0) throw new Error(profiles.stderr);
  const wallet = await busiestWallet(data, 'fills');
  const [market] = (await busiestMarkets(data, 1)) as [string];
  const server = await startServer({ data, host: '127.0.0.1', port: 0 });
  const base = `http://127.0.0.1:${server.port}`;
  const api = apiClient(server.port, key);
  const answer = async (path: string) => {
    const { status, body } = await api(path);
    if (status !== 200) throw new Error(`${path}: ${status} ${JSON.stringify(body)}`);
    return body;
  };
  const browser: Browser = await chromium.launch({ executablePath });
  t.teardown(async () => {
    await browser.close();
    server.closeAll();
  });
  mkdirSync(SHOTS, { recursive: true });

  /** A context whose pages find `stored` under tally.apiKey (none: null). */
  const contextWith = async (
    stored: string | null,
    viewport = { width: 1280, height: 1000 },
  ): Promise<BrowserContext> => {
    const context = await browser.newContext({ viewport });
    if (stored !== null)
      await context.addInitScript((k) => (globalThis as any).localStorage.setItem('tally.apiKey', k), stored);
    return context;
  };
  const keyed = await contextWith(key);

  /** A page with its console errors, uncaught exceptions and requests to other hosts recorded. */
  const open = async (context: BrowserContext, path: string) => {
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(`console: ${message.text()} (${message.location().url})`);
    });
    page.on('pageerror', (error) => problems.push(`exception: ${error.message}`));
    const requests: string[] = [];
    page.on('request', (request) => {
      requests.push(request.url());
      if (!request.url().startsWith(base)) problems.push(`outside request: ${request.url()}`);
    });
    const started = Date.now();
    await page.goto(base + path);
    return { page, problems, started, requests };
  };

  /** The table's row keys once it is ready; waits for `expected` when given (a page or a choice changing). */
  const rowKeys = async (page: Page, table: string, expected?: string[]) => {
    const selector = `[data-table="${table}"][data-state="ready"]`;
    await page.waitForSelector(selector);
    const read = () =>
      page.$$eval(`${selector} tbody tr`, (rows) => rows.map((row) => row.getAttribute('data-key') ?? ''));
    if (expected !== undefined) {
      await page
        .waitForFunction(
          ([sel, keys]) =>
            JSON.stringify(
              [...(globalThis as any).document.querySelectorAll(`${sel} tbody tr`)].map((r: any) =>
                r.getAttribute('data-key'),
              ),
            ) === JSON.stringify(keys),
          [selector, expected] as const,
          { timeout: 10_000 },
        )
        .catch(() => {});
    }
    return read();
  };

  /** Canvas pixels drawn in the series' colours (uPlot draws axes and grid in greys). */
  const seriesPixels = (page: Page, chart: string) =>
    page.$eval(`[data-chart="${chart}"] canvas`, (canvas) => {
      const { data } = (canvas as any).getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height);
      let count = 0;
      for (let i = 0; i < data.length; i += 4) {
        const [r, g, b, a] = [data[i]!, data[i + 1]!, data[i + 2]!, data[i + 3]!];
        if (a > 0 && Math.max(r, g, b) - Math.min(r, g, b) > 60) count++;
      }
      return count;
    });

  const finish = async (t: Test, name: string, page: Page, problems: string[]) => {
    await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
    t.same(problems, [], `${name}: no console error, no request elsewhere`);
    await page.close();
  };

  t.test('default: the board shows the leaderboard; paging, choices and the search change it', async (t) => {
    const { page, problems, started } = await open(keyed, '/');
    const first = await answer('/v1/leaderboard?limit=50');
    t.same(
      await rowKeys(page, 'board'),
      first.rows.map((row: any) => row.wallet),
      'the first page, in order',
    );
    t.comment(`board: a usable table ${Date.now() - started} ms after navigation`);
    const health = await answer('/v1/health');
    await page.waitForSelector('[data-block]');
    t.equal(
      (await page.textContent('[data-block]'))!.replaceAll(',', ''),
      String(health.block),
      'the block shown is the served one',
    );
    await page.click('[data-table="board"] [data-next]');
    const second = await answer('/v1/leaderboard?limit=50&offset=50');
    t.same(
      await rowKeys(
        page,
        'board',
        second.rows.map((row: any) => row.wallet),
      ),
      second.rows.map((row: any) => row.wallet),
      'Next: the second page',
    );
    await page.selectOption('select[name="sort"]', 'volume');
    const byVolume = (await answer('/v1/leaderboard?limit=50&sort=volume')).rows.map((row: any) => row.wallet);
    t.same(await rowKeys(page, 'board', byVolume), byVolume, 'sorted by volume, from the first page again');
    await page.selectOption('select[name="period"]', '7d');
    const week = (await answer('/v1/leaderboard?limit=50&sort=volume&period=7d')).rows.map((row: any) => row.wallet);
    t.same(await rowKeys(page, 'board', week), week, 'the 7-day board');
    t.match(page.url(), /period=7d/, 'the choices are in the URL');
    await page.fill('input[name="q"]', 'a');
    await page.press('input[name="q"]', 'Enter');
    t.match(await page.textContent('[data-search-problem]'), /0x plus 40 hex/, 'a search too short says what it takes');
    const { market: view } = await answer(`/v1/markets/${market}`);
    const words = view.question
      .split(/\s+/)
      .filter((word: string) => word.length > 3)
      .slice(0, 2)
      .join(' ');
    await page.fill('input[name="q"]', words);
    await Promise.all([page.waitForURL(/\/\?q=/), page.press('input[name="q"]', 'Enter')]);
    const found = (await answer(`/v1/markets?q=${encodeURIComponent(words)}&limit=20`)).markets.map(
      (x: any) => x.conditionId,
    );
    t.ok(found.includes(market), `the API finds the market by "${words}"`);
    t.same(await rowKeys(page, 'markets'), found, 'words: the markets they find, listed above the board');
    await Promise.all([page.waitForURL(`${base}/market/${market}`), page.click(`[data-key="${market}"] a`)]);
    t.equal(await page.textContent('[data-question]'), view.question, "a found market's link opens its page");
    await page.fill('input[name="q"]', wallet.toUpperCase().replace('0X', '0x'));
    await Promise.all([page.waitForURL(`${base}/wallet/${wallet}`), page.press('input[name="q"]', 'Enter')]);
    t.equal(await page.textContent('[data-wallet]'), wallet, "a wallet's address opens its page");
    await finish(t, 'board', page, problems);
  });

  t.test('default: the busiest events show their titles, each linking to its busiest market', async (t) => {
    const { page, problems } = await open(keyed, '/');
    const heat = await answer('/v1/events/heat?window=24h&limit=8');
    t.ok(heat.events.length > 0, 'events traded in the last day of the demo');
    const expected = [];
    for (const { eventSlug } of heat.events) {
      const event = await answer(`/v1/events/${encodeURIComponent(eventSlug)}`);
      t.ok(event.title, `${eventSlug} has a title`);
      expected.push({ key: eventSlug, text: event.title, href: `/market/${event.markets[0].conditionId}` });
    }
    await page.waitForSelector('[data-heat] li');
    const shown = await page.$$eval('[data-heat] li', (items) =>
      items.map((item) => ({
        key: item.getAttribute('data-key'),
        text: item.querySelector('a')?.textContent ?? null,
        href: item.querySelector('a')?.getAttribute('href') ?? null,
      })),
    );
    t.same(shown, expected, 'each event by its title, in the heat order');
    await finish(t, 'heat', page, problems);
  });

  t.test("default: the wallet page shows the API's figures and rows; the toggle and paging change them", async (t) => {
    const { page, problems, started } = await open(keyed, `/wallet/${wallet}`);
    const open25 = await answer(`/v1/wallets/${wallet}/positions?status=open&limit=25`);
    t.same(
      await rowKeys(page, 'open'),
      open25.rows.map((row: any) => row.tokenId),
      'open positions, biggest first',
    );
    t.comment(`wallet: a usable table ${Date.now() - started} ms after navigation`);
    const closed = await answer(`/v1/wallets/${wallet}/closed-positions?limit=25`);
    t.same(
      await rowKeys(page, 'closed'),
      closed.rows.map((row: any) => row.tokenId),
      'closed positions',
    );
    const trades = await answer(`/v1/wallets/${wallet}/trades?limit=25`);
    t.same(await rowKeys(page, 'trades'), trades.trades.map(tradeKey), 'trades, newest first');
    await page.click('[data-table="trades"] [data-next]');
    const older = (await answer(`/v1/wallets/${wallet}/trades?limit=25&before=${trades.next}`)).trades.map(tradeKey);
    t.same(await rowKeys(page, 'trades', older), older, "Next: the page the API's cursor gives");
    for (const period of ['all', '7d', '1d']) {
      if (period !== 'all') await page.click(`[data-window="${period}"]`);
      await page.waitForSelector(`[data-stats="/wallets/${wallet}/stats?period=${period}"]`);
      const { row } = await answer(`/v1/wallets/${wallet}/stats?period=${period}`);
      for (const figure of ['totalPnl', 'realizedPnl', 'volume', 'fills']) {
        t.equal(
          await page.getAttribute(`[data-figure="${figure}"]`, 'data-value'),
          String(row[figure]),
          `${period}: ${figure} as the API gives it`,
        );
      }
      const categories = (await answer(`/v1/wallets/${wallet}/categories?period=${period}`)).rows.map(
        (x: any) => x.category,
      );
      if (categories.length > 0)
        t.same(await rowKeys(page, 'categories', categories), categories, `${period}: categories`);
    }
    t.same(
      await page.$$eval('[data-venue-api] a', (links) =>
        links.map((a) => [a.getAttribute('href'), a.getAttribute('data-operation'), a.textContent]),
      ),
      [
        ['getVenuePositions', `/positions?user=${wallet}`],
        ['getVenueClosedPositions', `/closed-positions?user=${wallet}`],
        ['getVenueActivity', `/activity?user=${wallet}`],
        ['getVenueTrades', `/trades?user=${wallet}`],
        ['getVenueValue', `/value?user=${wallet}`],
        ['getVenueTraded', `/traded?user=${wallet}`],
      ].map(([operation, url]) => [`/docs#/Data%20API%20shapes/${operation}`, operation, url]),
      'the Data API shapes of the wallet, each linked to its operation in /docs',
    );
    await page.click('[data-window="all"]');
    await page.waitForSelector('[data-chart="pnl"] canvas');
    t.ok((await seriesPixels(page, 'pnl')) > 200, 'the cumulative PnL is drawn');
    t.equal(
      Number(await page.getAttribute('[data-chart="pnl"]', 'data-points')) > 0,
      closed.total > 0,
      'a point per exit time',
    );
    await finish(t, 'wallet', page, problems);
  });

  t.test("default: the market page shows the API's market, charts, holders, top traders and trades", async (t) => {
    const { page, problems, started } = await open(keyed, `/market/${market}`);
    const trades = await answer(`/v1/markets/${market}/trades?limit=25`);
    t.same(await rowKeys(page, 'trades'), trades.trades.map(tradeKey), 'trades, newest first');
    t.comment(`market: a usable table ${Date.now() - started} ms after navigation`);
    const { market: metadata } = await answer(`/v1/markets/${market}`);
    t.equal(await page.textContent('[data-question]'), metadata.question ?? 'Market', 'the question');
    await page.click('[data-table="trades"] [data-next]');
    const older = (await answer(`/v1/markets/${market}/trades?limit=25&cursor=${trades.next}`)).trades.map(tradeKey);
    t.same(await rowKeys(page, 'trades', older), older, "Next: the page the API's cursor gives");
    await page.waitForSelector('[data-table="top-traders"]');
    const top = (await answer(`/v1/markets/${market}/top-traders?limit=20`)).traders.map((x: any) => x.wallet);
    t.same(
      await page.$$eval('[data-table="top-traders"] tbody tr', (rows) => rows.map((r) => r.getAttribute('data-key'))),
      top,
      'top traders',
    );
    const lines = await answer(`/v1/markets/${market}/holder-lines?top=10`);
    for (const outcome of lines.outcomes) {
      for (const group of ['holders', 'traders']) {
        const name = `${group}${outcome.outcomeIndex}`;
        t.same(
          await page.$$eval(`[data-table="${name}"] tbody tr`, (rows) => rows.map((r) => r.getAttribute('data-key'))),
          outcome[group].members.map((member: any) => member.wallet),
          `outcome ${outcome.outcomeIndex}: ${group}`,
        );
      }
    }
    t.same(
      await page.$$eval('[data-venue-api] code', (codes) => codes.map((code) => code.textContent)),
      [`/trades?market=${market}`, `/holders?market=${market}`],
      "the market's Data API shapes",
    );
    for (const chart of ['price', 'volume']) {
      await page.waitForSelector(`[data-chart="${chart}"] canvas`);
      t.ok((await seriesPixels(page, chart)) > 200, `the ${chart} chart is drawn`);
    }
    await finish(t, 'market', page, problems);
  });

  t.test('default: /docs renders every operation of /v1/openapi.json', async (t) => {
    const { page, problems } = await open(keyed, '/docs');
    const openApi: any = await (await fetch(`${base}/v1/openapi.json`)).json();
    // Swagger UI draws an operation under each of its tags.
    const operations = Object.values(openApi.paths).reduce((sum: number, path: any) => sum + path.get.tags.length, 0);
    await page.waitForFunction(
      (n) => (globalThis as any).document.querySelectorAll('.opblock').length === n,
      operations,
    );
    t.pass(`${operations} operations drawn`);
    await finish(t, 'docs', page, problems);
  });

  t.test('default: without a key the page says how to make one, and keeps the one given', async (t) => {
    const context = await contextWith(null);
    const { page, problems } = await open(context, '/');
    t.match(await page.textContent('.gate'), /tally keys create/, 'how to make a key');
    await page.fill('.gate input[name="key"]', key);
    await page.click('.gate button[type="submit"]');
    await page.waitForSelector('[data-table="board"][data-state="ready"] tbody tr');
    t.equal(
      await page.evaluate(() => (globalThis as any).localStorage.getItem('tally.apiKey')),
      key,
      'kept under tally.apiKey',
    );
    t.notMatch(page.url(), /svc_/, 'never in the URL');
    await finish(t, 'no-key', page, problems);
    await context.close();
  });

  t.test('default: at phone width no page scrolls sideways; its wide tables scroll in their own box', async (t) => {
    const phone = await contextWith(key, { width: 390, height: 844 });
    for (const [path, table] of [
      ['/', 'board'],
      [`/wallet/${wallet}`, 'trades'],
      [`/market/${market}`, 'trades'],
    ] as const) {
      const { page, problems } = await open(phone, path);
      await page.waitForSelector(`[data-table="${table}"][data-state="ready"] tbody tr`);
      const widths = await page.evaluate(() => {
        const document = (globalThis as any).document;
        const boxes = [...document.querySelectorAll('.scroll')];
        return {
          page: document.documentElement.scrollWidth,
          view: (globalThis as any).innerWidth,
          scrolling: boxes.filter((box: any) => box.scrollWidth > box.clientWidth).length,
        };
      });
      t.ok(widths.page <= widths.view, `${path}: the page is ${widths.page} px wide in a ${widths.view} px view`);
      t.ok(widths.scrolling > 0, `${path}: ${widths.scrolling} tables scroll inside their box`);
      await finish(t, `phone${path.replaceAll('/', '-')}`, page, problems);
    }
    await phone.close();
  });

  t.test('error: the page of a bad address says so once, and asks the API nothing of it', async (t) => {
    const { page, problems, requests } = await open(keyed, '/wallet/0x12345');
    await page.waitForSelector('[role="alert"]');
    await page.waitForLoadState('networkidle');
    t.equal(await page.locator('[role="alert"]').count(), 1, 'one error');
    t.match(await page.textContent('[role="alert"]'), /not a wallet address: give 0x and 40 hex digits/);
    t.same(
      requests.filter((url) => url.includes('/v1/wallets/0x12345')),
      [],
      'no wallet route asked',
    );
    await finish(t, 'bad-address', page, problems);
  });

  t.test('error: a wrong key is refused, and the page says so', async (t) => {
    const context = await contextWith(`svc_${'0'.repeat(48)}`);
    const { page, problems } = await open(context, `/wallet/${wallet}`);
    await page.waitForSelector('.gate [role="alert"]');
    t.match(await page.textContent('.gate [role="alert"]'), /refused.*unknown or revoked API key/);
    t.ok(problems.length > 0 && problems.every((problem) => / 401 /.test(problem)), 'the only errors: the 401s');
    await page.screenshot({ path: join(SHOTS, 'wrong-key.png'), fullPage: true });
    await context.close();
  });
}
