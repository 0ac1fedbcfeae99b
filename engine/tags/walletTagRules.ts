// The wallet-tag rules, version 1 (docs/design.md 6): which wallets trade like programs, from their fills over a
// window, in chain order. Pure: the same fills and markets give the same tags. A wallet gets one tag, the first
// kind in TAG_KINDS whose rule it meets (a market maker also trades at a high frequency; it is tagged a market
// maker).

export const RULES_VERSION = 1;

/** Kinds in the order a wallet that meets several rules is tagged. */
export const TAG_KINDS = ['updown-bot', 'market-maker', 'high-frequency', 'arbitrage', 'copy-trader'] as const;
export type TagKind = (typeof TAG_KINDS)[number];

export const RULES = {
  highFrequency: { ordersPerDay: 200, hoursPerDay: 8, days: 3 },
  marketMaker: { makerShare: 0.7, fills: 100, twoSidedMarkets: 5 },
  updownBot: { roundShare: 0.8, rounds: 20 },
  arbitrage: { seconds: 60, markets: 10 },
  copyTrader: { seconds: 30, copies: 20, markets: 5 },
} as const;

/** One fill as the rules read it. `market` numbers a market (a condition, or a token no condition explains). */
export interface TagFill {
  walletId: number;
  ts: number;
  maker: boolean;
  buy: boolean;
  market: number;
  outcome: number;
  /** USD per share. */
  price: number;
}

export interface TagMarkets {
  /** A crypto Up/Down round. */
  isRound(market: number): boolean;
  /** The neg-risk event of a question's market, with its number of questions; null for a binary market. */
  event(market: number): { id: string; questions: number } | null;
}

export interface WalletTag {
  kind: TagKind;
  facts: Record<string, number | string>;
  /** The wallet's first fill in the window (Unix seconds). */
  firstTs: number;
}

interface Activity {
  firstTs: number;
  fills: number;
  makerFills: number;
  /** Per UTC day of activity, its active hours as a 24-bit mask. */
  hours: Map<number, number>;
  /** Per market, the sides its maker fills took (1 buy, 2 sell). */
  makerSides: Map<number, number>;
  roundFills: number;
  rounds: Set<number>;
  /** Buys of the last `arbitrage.seconds`, oldest first. */
  recentBuys: TagFill[];
  /** Per market it split in, the sides it sold since (1 outcome 0, 2 outcome 1). */
  splitSold: Map<number, number>;
  arbitraged: Set<number>;
  /** Per leader, the copies and the markets they were in. */
  copies: Map<number, { copies: number; markets: Set<number> }>;
}

function createActivity(ts: number): Activity {
  return {
    firstTs: ts,
    fills: 0,
    makerFills: 0,
    hours: new Map(),
    makerSides: new Map(),
    roundFills: 0,
    rounds: new Set(),
    recentBuys: [],
    splitSold: new Map(),
    arbitraged: new Set(),
    copies: new Map(),
  };
}

export interface TagScan {
  /** A split of the window by the wallet (before its fills are added): selling both sides after it is arbitrage. */
  addSplit(walletId: number, market: number, ts: number): void;
  add(fill: TagFill): void;
  /** Tags by wallet id, in wallet id order. */
  finish(): Map<number, WalletTag>;
}

export function createTagScan(markets: TagMarkets): TagScan {
  const wallets = new Map<number, Activity>();
  // Per token and side, the fills of the last copyTrader.seconds, oldest first: the leaders a fill may copy.
  const recent = new Map<string, Array<{ ts: number; walletId: number }>>();
  // Per wallet and market, the time of its first split in the window.
  const splits = new Map<string, number>();
  return {
    addSplit(walletId, market, ts) {
      const key = `${walletId}:${market}`;
      splits.set(key, Math.min(splits.get(key) ?? Infinity, ts));
    },
    add(fill) {
      let activity = wallets.get(fill.walletId);
      if (!activity) wallets.set(fill.walletId, (activity = createActivity(fill.ts)));
      activity.fills++;
      const day = Math.floor(fill.ts / 86_400);
      activity.hours.set(day, (activity.hours.get(day) ?? 0) | (1 << Math.floor((fill.ts % 86_400) / 3_600)));
      if (fill.maker) {
        activity.makerFills++;
        activity.makerSides.set(fill.market, (activity.makerSides.get(fill.market) ?? 0) | (fill.buy ? 1 : 2));
      }
      if (markets.isRound(fill.market)) {
        activity.roundFills++;
        activity.rounds.add(fill.market);
      }
      if (fill.buy) addBuy(activity, fill, markets);
      else if ((splits.get(`${fill.walletId}:${fill.market}`) ?? Infinity) <= fill.ts && fill.outcome >= 0) {
        const sold = (activity.splitSold.get(fill.market) ?? 0) | (fill.outcome === 0 ? 1 : 2);
        activity.splitSold.set(fill.market, sold);
        if (sold === 3) activity.arbitraged.add(fill.market);
      }
      const token = `${fill.market}:${fill.outcome}:${fill.buy ? 1 : 0}`;
      let leaders = recent.get(token);
      if (!leaders) recent.set(token, (leaders = []));
      while (leaders.length > 0 && fill.ts - leaders[0]!.ts > RULES.copyTrader.seconds) leaders.shift();
      // A copy is an order the wallet sent (a taker fill) after another wallet's fill of the same token and side.
      if (!fill.maker) {
        const seen = new Set<number>();
        for (const leader of leaders) {
          if (leader.walletId === fill.walletId || seen.has(leader.walletId)) continue;
          seen.add(leader.walletId);
          let pair = activity.copies.get(leader.walletId);
          if (!pair) activity.copies.set(leader.walletId, (pair = { copies: 0, markets: new Set() }));
          pair.copies++;
          pair.markets.add(fill.market);
        }
      }
      leaders.push({ ts: fill.ts, walletId: fill.walletId });
    },
    finish() {
      const tags = new Map<number, WalletTag>();
      for (const walletId of [...wallets.keys()].sort((a, b) => a - b)) {
        const tag = tagOf(wallets.get(walletId)!);
        if (tag) tags.set(walletId, tag);
      }
      return tags;
    },
  };
}

/**
 * Complementary buys: both outcomes of a market, or every question's YES of a neg-risk event, under 1 in all.
 * (The rule's other form, split then sold both sides, is counted in add.)
 */
function addBuy(activity: Activity, fill: TagFill, markets: TagMarkets): void {
  const buys = activity.recentBuys;
  while (buys.length > 0 && fill.ts - buys[0]!.ts > RULES.arbitrage.seconds) buys.shift();
  buys.push(fill);
  const event = markets.event(fill.market);
  if (event === null) {
    for (const other of buys) {
      if (other.market === fill.market && other.outcome !== fill.outcome && other.price + fill.price < 1)
        activity.arbitraged.add(fill.market);
    }
    return;
  }
  if (fill.outcome !== 0) return;
  // The cheapest YES of each question of the event bought in the last minute.
  const yes = new Map<number, number>();
  for (const other of buys) {
    if (other.outcome !== 0 || markets.event(other.market)?.id !== event.id) continue;
    yes.set(other.market, Math.min(yes.get(other.market) ?? Infinity, other.price));
  }
  let total = 0;
  for (const price of yes.values()) total += price;
  if (yes.size === event.questions && total < 1) for (const market of yes.keys()) activity.arbitraged.add(market);
}

const round2 = (value: number) => Math.round(value * 100) / 100;

function tagOf(activity: Activity): WalletTag | null {
  const days = activity.hours.size;
  let hours = 0;
  for (const mask of activity.hours.values()) for (let bits = mask; bits !== 0; bits &= bits - 1) hours++;
  const twoSided = [...activity.makerSides.values()].filter((sides) => sides === 3).length;
  let leader = -1;
  let best = { copies: 0, markets: new Set<number>() };
  for (const [id, pair] of activity.copies) {
    if (
      pair.markets.size >= RULES.copyTrader.markets &&
      (pair.copies > best.copies || (pair.copies === best.copies && id < leader))
    ) {
      leader = id;
      best = pair;
    }
  }
  const checks: Record<TagKind, () => Record<string, number> | null> = {
    'updown-bot': () => {
      const roundShare = activity.roundFills / activity.fills;
      return roundShare >= RULES.updownBot.roundShare && activity.rounds.size >= RULES.updownBot.rounds
        ? { roundShare: round2(roundShare * 100), rounds: activity.rounds.size, fills: activity.fills }
        : null;
    },
    'market-maker': () => {
      const makerShare = activity.makerFills / activity.fills;
      return makerShare >= RULES.marketMaker.makerShare &&
        activity.fills >= RULES.marketMaker.fills &&
        twoSided >= RULES.marketMaker.twoSidedMarkets
        ? { makerShare: round2(makerShare * 100), fills: activity.fills, twoSidedMarkets: twoSided }
        : null;
    },
    'high-frequency': () => {
      const ordersPerDay = activity.fills / days;
      const hoursPerDay = hours / days;
      return ordersPerDay >= RULES.highFrequency.ordersPerDay &&
        hoursPerDay >= RULES.highFrequency.hoursPerDay &&
        days >= RULES.highFrequency.days
        ? { ordersPerDay: round2(ordersPerDay), hoursPerDay: round2(hoursPerDay), days }
        : null;
    },
    arbitrage: () =>
      activity.arbitraged.size >= RULES.arbitrage.markets ? { markets: activity.arbitraged.size } : null,
    'copy-trader': () =>
      leader >= 0 && best.copies >= RULES.copyTrader.copies
        ? { leaderId: leader, copies: best.copies, markets: best.markets.size }
        : null,
  };
  for (const kind of TAG_KINDS) {
    const facts = checks[kind]();
    if (facts) return { kind, facts, firstTs: activity.firstTs };
  }
  return null;
}
