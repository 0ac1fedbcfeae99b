// What every part of the demo simulator shares: the capture being written, the venue's addresses, the wallets,
// the clock (the block being built) and the counters that end up in demo.json. One object, passed explicitly.
import type { VenueAddresses } from '../../engine/chain/venueAddresses.js';
import type { DemoCapture } from './demoCapture.js';
import type { DemoWallet, WalletPopulation } from './demoWallets.js';
import type { HexIds, Prng } from './prng.js';

export const ZERO_ID = '0'.repeat(64);
export const ZERO_BYTES32 = '0x' + ZERO_ID;
/** The binary UMA CTF adapter most standard markets name as oracle (test/fixtures/realdata/README.md). */
export const UMA_ORACLE = '0x65070be91477460d8a7aeeb94ef92fe056c2f2a7';
/** The oracle of the 15-minute crypto rounds (the venue uses a separate one; this one is the demo's:
 * the last 20 bytes of keccak256("tally-demo-updown-oracle")). */
export const UPDOWN_ORACLE = '0x0751a6749be30c45eb99beaba9ba5d78caaa065f';
/** The neg-risk operator: MarketPrepared's oracle (docs/venue.md 2.4). */
export const NEG_RISK_OPERATOR = '0x71523d0f655b41e805cec45b17163f528b59b820';
/** Where V1 exchange fees go when no fee module runs the match, and the V2 operator's fee receiver (keccak-derived
 * like the oracle above). */
export const DEMO_FEE_RECEIVER = '0x0b6568543226843f3331c9b1f3478d3df4d57c0c';
export const DEMO_FEE_RECEIVER_V2 = '0x752d6dc30000935ade85ebae246870df58f77ba7';

export interface DemoCounters {
  matches: number;
  matchTypes: { complementary: number; mint: number; merge: number };
  feeModuleMatches: number;
  userSplits: number;
  userMerges: number;
  transfers: number;
  conversions: number;
  /** Conversions in events whose adapter fee (feeBips) is not zero. */
  conversionsWithFee: number;
  redemptions: number;
  zeroPayoutRedemptions: number;
  ammTrades: number;
  copyTrades: number;
  arbitrageLegs: number;
  partialHistorySells: number;
}

export interface DemoContext {
  capture: DemoCapture;
  prng: Prng;
  /** Unique random-looking 32-byte ids (order hashes). */
  ids: HexIds;
  addresses: VenueAddresses;
  population: WalletPopulation;
  wallets: DemoWallet[];
  /** The block being built and its timestamp. */
  block: number;
  ts: number;
  /** OrderFilled logs written so far, and the number asked for. */
  fills: number;
  fillsTarget: number;
  counters: DemoCounters;
}

export function createCounters(): DemoCounters {
  return {
    matches: 0,
    matchTypes: { complementary: 0, mint: 0, merge: 0 },
    feeModuleMatches: 0,
    userSplits: 0,
    userMerges: 0,
    transfers: 0,
    conversions: 0,
    conversionsWithFee: 0,
    redemptions: 0,
    zeroPayoutRedemptions: 0,
    ammTrades: 0,
    copyTrades: 0,
    arbitrageLegs: 0,
    partialHistorySells: 0,
  };
}
