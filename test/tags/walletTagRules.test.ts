// The wallet-tag rules (docs/design.md 6, rules version 1) at their edges: each rule met exactly, and missed by one
// fill, hour, day, market, second or cent; one tag a wallet, in the rules' order.
import t from 'tap';
import { createTagScan, type TagFill, type TagMarkets, type WalletTag } from '../../engine/tags/walletTagRules.js';

const DAY = 86_400;
const T0 = 1_800_000_000 - (1_800_000_000 % DAY);
/** Markets 1000-1099 are crypto rounds; 500-502 the three questions of one neg-risk event. */
const markets: TagMarkets = {
  isRound: (market) => market >= 1000 && market < 1100,
  event: (market) => (market >= 500 && market <= 502 ? { id: 'event', questions: 3 } : null),
};
const fill = (walletId: number, ts: number, fields: Partial<TagFill> = {}): TagFill => ({
  walletId,
  ts,
  maker: false,
  buy: true,
  market: 1,
  outcome: 0,
  price: 0.5,
  ...fields,
});
function tags(fills: TagFill[]): Map<number, WalletTag> {
  const scan = createTagScan(markets);
  for (const f of [...fills].sort((a, b) => a.ts - b.ts)) scan.add(f);
  return scan.finish();
}
const kindOf = (fills: TagFill[], wallet = 1) => tags(fills).get(wallet)?.kind ?? null;

/** `perDay` fills a day over `days` days, spread over `hours` hours of each; markets 1-9, alternating sides. */
function frequent(perDay: number, hours: number, days: number): TagFill[] {
  const fills: TagFill[] = [];
  for (let d = 0; d < days; d++) {
    for (let i = 0; i < perDay; i++)
      fills.push(
        fill(1, T0 + d * DAY + (i % hours) * 3600 + Math.floor(i / hours), {
          market: 1 + (i % 9),
          buy: i % 2 === 0,
          outcome: 1,
        }),
      );
  }
  return fills;
}

t.test('high-frequency: 200 fills a day, 8 hours a day, 3 days', async (t) => {
  t.equal(kindOf(frequent(200, 8, 3)), 'high-frequency');
  t.same(tags(frequent(200, 8, 3)).get(1)!.facts, { ordersPerDay: 200, hoursPerDay: 8, days: 3 });
  t.equal(kindOf(frequent(199, 8, 3)), null, '199 a day');
  t.equal(kindOf(frequent(200, 7, 3)), null, '7 hours a day');
  t.equal(kindOf(frequent(300, 8, 2)), null, '2 days');
});

/** `fills` fills, `makers` of them as maker; maker fills on both sides in `twoSided` markets. */
function quoting(fills: number, makers: number, twoSided: number): TagFill[] {
  return Array.from({ length: fills }, (_, i) =>
    fill(1, T0 + i * 600, {
      maker: i < makers,
      market: i < 2 * twoSided ? 10 + Math.floor(i / 2) : 10,
      buy: i % 2 === 0,
    }),
  );
}

t.test('market-maker: 70% maker, 100 fills, both sides in 5 markets', async (t) => {
  t.equal(kindOf(quoting(100, 70, 5)), 'market-maker');
  t.equal(kindOf(quoting(99, 70, 5)), null, '99 fills');
  t.equal(kindOf(quoting(100, 69, 5)), null, '69% maker');
  t.equal(kindOf(quoting(100, 70, 4)), null, 'both sides in 4 markets');
  const both = [...frequent(200, 8, 3).map((f) => ({ ...f, maker: true }))];
  t.equal(kindOf(both), 'market-maker', 'a market maker trading at a high frequency is a market maker');
});

/** `inRounds` fills over `rounds` round markets, the rest (to `total`) elsewhere. */
function rounds(total: number, inRounds: number, roundCount: number): TagFill[] {
  return Array.from({ length: total }, (_, i) =>
    fill(1, T0 + i * 60, { market: i < inRounds ? 1000 + (i % roundCount) : 7 }),
  );
}

t.test('updown-bot: 80% of fills in rounds, 20 rounds', async (t) => {
  t.equal(kindOf(rounds(100, 80, 20)), 'updown-bot');
  t.equal(kindOf(rounds(100, 79, 20)), null, '79% in rounds');
  t.equal(kindOf(rounds(100, 80, 19)), null, '19 rounds');
});

/** Both outcomes bought `gap` seconds apart at `a` and `b` in each of `count` markets. */
function complementary(count: number, gap: number, a: number, b: number): TagFill[] {
  return Array.from({ length: count }, (_, m) => [
    fill(1, T0 + m * 3600, { market: 100 + m, outcome: 0, price: a }),
    fill(1, T0 + m * 3600 + gap, { market: 100 + m, outcome: 1, price: b }),
  ]).flat();
}

t.test('arbitrage: complementary buys under 1 within 60 s in 10 markets', async (t) => {
  t.equal(kindOf(complementary(10, 60, 0.48, 0.51)), 'arbitrage');
  t.same(tags(complementary(10, 60, 0.48, 0.51)).get(1)!.facts, { markets: 10 });
  t.equal(kindOf(complementary(10, 61, 0.48, 0.51)), null, '61 s apart');
  t.equal(kindOf(complementary(10, 60, 0.49, 0.51)), null, 'a total of exactly 1');
  t.equal(kindOf(complementary(9, 60, 0.48, 0.51)), null, '9 markets');
  // Every question's YES of a three-question event under 1 counts its three markets.
  const event = [500, 501, 502].map((market, i) => fill(1, T0 + i * 20, { market, outcome: 0, price: 0.3 }));
  t.equal(
    kindOf([...complementary(7, 60, 0.48, 0.51), ...event]),
    'arbitrage',
    '7 binary markets and a 3-question event',
  );
  const partial = event.slice(0, 2);
  t.equal(kindOf([...complementary(8, 60, 0.48, 0.51), ...partial]), null, 'two of the three questions do not count');
});

/** The leader (wallet 2) buys, the follower (wallet 1) takes the same token and side `lag` seconds later. */
function copying(copies: number, marketCount: number, lag: number, followerMaker = false): TagFill[] {
  return Array.from({ length: copies }, (_, i) => {
    const market = 200 + (i % marketCount);
    return [
      fill(2, T0 + i * 3600, { market, maker: true }),
      fill(1, T0 + i * 3600 + lag, { market, maker: followerMaker }),
    ];
  }).flat();
}

t.test('copy-trader: 20 times in 5 markets within 30 s after the same leader', async (t) => {
  const tag = tags(copying(20, 5, 30)).get(1)!;
  t.same([tag.kind, tag.facts], ['copy-trader', { leaderId: 2, copies: 20, markets: 5 }]);
  t.equal(kindOf(copying(20, 5, 31)), null, '31 s later');
  t.equal(kindOf(copying(19, 5, 30)), null, '19 times');
  t.equal(kindOf(copying(20, 4, 30)), null, 'in 4 markets');
  t.equal(kindOf(copying(20, 5, 30, true)), null, 'fills as a maker are not orders it sent');
  t.equal(tags(copying(20, 5, 30)).get(2), undefined, 'the leader is not tagged');
});

t.test("since: the wallet's first fill in the window; wallets in id order", async (t) => {
  const result = tags([...rounds(100, 80, 20).map((f) => ({ ...f, walletId: 5 })), ...frequent(200, 8, 3)]);
  t.same([...result.keys()], [1, 5]);
  t.equal(result.get(5)!.firstTs, T0);
});

t.test('arbitrage, its other form: split, then sold both sides, in 10 markets', async (t) => {
  const splitSold = (count: number, sides: number[], splitAfter = false) => {
    const scan = createTagScan(markets);
    for (let m = 0; m < count; m++) scan.addSplit(1, 300 + m, T0 + m * 3600 + (splitAfter ? 100 : 0));
    for (let m = 0; m < count; m++) {
      for (const outcome of sides)
        scan.add(fill(1, T0 + m * 3600 + 10 + outcome, { market: 300 + m, outcome, buy: false }));
    }
    return scan.finish().get(1)?.kind ?? null;
  };
  t.equal(splitSold(10, [0, 1]), 'arbitrage');
  t.equal(splitSold(9, [0, 1]), null, '9 markets');
  t.equal(splitSold(10, [0]), null, 'one side sold');
  t.equal(splitSold(10, [0, 1], true), null, 'sold before the split');
});
