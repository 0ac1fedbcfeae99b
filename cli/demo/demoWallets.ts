// The demo venue's wallets and their behaviour kinds (replay/README.md, Demo venue names the tags they should earn).
// Counts scale with the number of fills so each bot keeps a realistic per-day rate at any size. Retail wallets
// are picked with a skewed law: a few are busy, most trade a handful of times.
import type { Prng } from './prng.js';

export const WALLET_KIND = {
  retail: 0,
  marketMaker: 1,
  highFrequency: 2,
  updownBot: 3,
  arbitrageur: 4,
  copyTrader: 5,
} as const;
export type WalletKind = (typeof WALLET_KIND)[keyof typeof WALLET_KIND];
export const WALLET_KIND_NAMES = [
  'retail',
  'marketMaker',
  'highFrequency',
  'updownBot',
  'arbitrageur',
  'copyTrader',
] as const;

export interface DemoWallet {
  id: number;
  address: string;
  kind: WalletKind;
  /** Never redeems a resolved position (replay/README.md, Demo venue: redeemable rows must exist). */
  neverRedeem: boolean;
  /** Holds shares bought before the capture starts and sells them (partial history). */
  partialHistory: boolean;
  /** Other wallets copy this one's trades. */
  leader: boolean;
  /** For copy traders: the wallet they copy. */
  follows: number;
  /** Copy traders following this wallet. */
  followers: number[];
  fills: number;
  makerFills: number;
}

export interface WalletPopulation {
  wallets: DemoWallet[];
  /** Wallet ids per kind, indexed by WalletKind. */
  byKind: number[][];
  leaders: number[];
  partialHistory: number[];
}

const clamp = (value: number, low: number, high: number) => Math.max(low, Math.min(high, Math.round(value)));

/** Days of the timeline, fill share and per-active-day rate that size the high-frequency bots. */
const HF_FILL_SHARE = 0.12;
const HF_FILLS_PER_DAY = 250;

export function createWalletPopulation(fills: number, days: number, prng: Prng): WalletPopulation {
  const counts: Record<WalletKind, number> = {
    [WALLET_KIND.retail]: clamp(fills / 30, 60, 300_000),
    [WALLET_KIND.marketMaker]: clamp(fills / 25_000, 3, 400),
    [WALLET_KIND.highFrequency]: Math.max(1, Math.floor((fills * HF_FILL_SHARE) / days / HF_FILLS_PER_DAY)),
    [WALLET_KIND.updownBot]: clamp(fills / 40_000, 2, 500),
    [WALLET_KIND.arbitrageur]: clamp(fills / 50_000, 1, 300),
    [WALLET_KIND.copyTrader]: clamp(fills / 50_000, 1, 300),
  };
  const wallets: DemoWallet[] = [];
  const byKind: number[][] = [[], [], [], [], [], []];
  const seen = new Set<string>();
  for (let kind = 0 as WalletKind; kind <= 5; kind++) {
    for (let i = 0; i < counts[kind]; i++) {
      let address = '0x' + prng.hex40();
      while (seen.has(address)) address = '0x' + prng.hex40();
      seen.add(address);
      const id = wallets.length;
      wallets.push({
        id,
        address,
        kind,
        neverRedeem: kind === WALLET_KIND.retail && prng.chance(0.1),
        partialHistory: false,
        leader: false,
        follows: -1,
        followers: [],
        fills: 0,
        makerFills: 0,
      });
      byKind[kind]!.push(id);
    }
  }
  const retail = byKind[WALLET_KIND.retail]!;
  // Leaders are busy retail wallets (low indexes are picked most); each copy trader follows one of them.
  const leaders: number[] = [];
  const leaderCount = Math.max(1, Math.ceil(counts[WALLET_KIND.copyTrader] / 1.5));
  for (let i = 0; i < leaderCount; i++) {
    const leader = wallets[retail[1 + i * 3]!]!;
    leader.leader = true;
    leader.neverRedeem = false;
    leaders.push(leader.id);
  }
  byKind[WALLET_KIND.copyTrader]!.forEach((id, i) => {
    const leader = wallets[leaders[i % leaders.length]!]!;
    wallets[id]!.follows = leader.id;
    leader.followers.push(id);
  });
  // Partial-history wallets: from the quiet end of the retail list, so their few trades are mostly those sells.
  const partialHistory: number[] = [];
  const partialCount = clamp(fills / 40_000, 2, 200);
  for (let i = 0; i < partialCount && i < retail.length / 2; i++) {
    const wallet = wallets[retail[retail.length - 1 - i * 2]!]!;
    wallet.partialHistory = true;
    partialHistory.push(wallet.id);
  }
  return { wallets, byKind, leaders, partialHistory };
}

/** A retail wallet id, skewed so that low indexes (the busy traders) come up far more often. */
export function pickRetail(population: WalletPopulation, prng: Prng): number {
  const retail = population.byKind[WALLET_KIND.retail]!;
  const u = prng.float();
  return retail[Math.floor(retail.length * u * u * u)]!;
}

/** A wallet of a kind, uniformly. */
export function pickOfKind(population: WalletPopulation, kind: WalletKind, prng: Prng): number {
  return prng.pick(population.byKind[kind]!);
}
