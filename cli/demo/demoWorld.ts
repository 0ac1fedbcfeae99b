// The demo simulator's state beyond the shared context: the scheduler, the lists of open markets each
// behaviour picks from, and short memories of recent trades (who bought what) that later sells, transfers and
// conversions draw on. Everything here is bounded by the open markets or a fixed ring size.
import type { DemoContext } from './demoContext.js';
import type { PriceFeed } from './demoFeeds.js';
import type { DemoEvent, DemoMarket } from './demoMarkets.js';
import type { JsonArrayWriter } from './demoMetadata.js';
import type { DemoScheduler, Task } from './demoScheduler.js';

/** A list of open markets with O(1) add and remove (a market sits in at most one list). */
export class MarketList {
  readonly items: DemoMarket[] = [];

  add(market: DemoMarket): void {
    market.listIndex = this.items.length;
    this.items.push(market);
  }

  remove(market: DemoMarket): void {
    const index = market.listIndex;
    if (index < 0 || this.items[index] !== market) return;
    const last = this.items.pop()!;
    if (last !== market) {
      this.items[index] = last;
      last.listIndex = index;
    }
    market.listIndex = -1;
  }

  get length(): number {
    return this.items.length;
  }
}

/** A fixed-size ring of recent (wallet, market, outcome) entries. */
export class RecentRing<T> {
  private readonly items: T[] = [];
  private next = 0;

  constructor(private readonly size: number) {}

  push(item: T): void {
    if (this.items.length < this.size) this.items.push(item);
    else this.items[this.next] = item;
    this.next = (this.next + 1) % this.size;
  }

  /** A random entry, or undefined when empty. */
  sample(u: number): T | undefined {
    return this.items.length === 0 ? undefined : this.items[Math.floor(u * this.items.length)];
  }
}

export interface RecentBuy {
  wallet: number;
  market: DemoMarket;
  outcome: number;
}

export interface RecentNo {
  wallet: number;
  event: DemoEvent;
}

export interface PartialHolding {
  wallet: number;
  market: DemoMarket;
}

export interface MarketCounts {
  binary: number;
  preexisting: number;
  negRiskEvents: number;
  negRiskQuestions: number;
  updown: number;
  amm: number;
}

export interface DemoWorld {
  ctx: DemoContext;
  scheduler: DemoScheduler;
  /** Open binary markets and neg-risk questions (book trading). */
  regular: MarketList;
  /** Open 15-minute crypto rounds. */
  rounds: MarketList;
  /** AMM markets whose pool is trading. */
  pools: MarketList;
  negEvents: DemoEvent[];
  feeds: PriceFeed[];
  recentBuys: RecentRing<RecentBuy>;
  recentNo: RecentRing<RecentNo>;
  partialHoldings: PartialHolding[];
  /** Market makers that also quote the crypto rounds. */
  roundMakers: number[];
  metadata: JsonArrayWriter;
  marketSeq: number;
  eventSeq: number;
  marketCounts: MarketCounts;
}

/** Schedules a task at `block`, never earlier than the next block (the current one is being written). */
export function scheduleAt(world: DemoWorld, block: number, task: Task): void {
  world.scheduler.at(Math.max(block, world.ctx.block + 1), task);
}

/** An open regular market, favouring popular ones; undefined when none is open. */
export function pickRegular(world: DemoWorld): DemoMarket | undefined {
  const items = world.regular.items;
  if (items.length === 0) return undefined;
  const prng = world.ctx.prng;
  let market = items[prng.int(items.length)]!;
  for (let tries = 0; tries < 6 && !prng.chance(market.weight); tries++) market = items[prng.int(items.length)]!;
  return market;
}

/** An open crypto round; undefined when none is open. */
export function pickRound(world: DemoWorld): DemoMarket | undefined {
  const items = world.rounds.items;
  return items.length === 0 ? undefined : items[world.ctx.prng.int(items.length)];
}
