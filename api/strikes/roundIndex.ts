// The round markets of the loaded metadata (engine/offchain/roundMarkets.ts), newest start first, found once per
// off-chain revision: a metadata load is the only thing that adds or changes rounds.
import { listRoundMarkets, type RoundMarket } from '../../engine/offchain/roundMarkets.js';
import type { OffchainStore } from '../../engine/offchain/openOffchainStore.js';

export interface RoundIndex {
  /** Every round, newest start first (then by asset, interval and condition id). */
  rounds(revision: number): readonly RoundMarket[];
}

export function createRoundIndex(offchain: OffchainStore): RoundIndex {
  let indexed: { revision: number; rounds: RoundMarket[] } | null = null;
  return {
    rounds(revision) {
      if (indexed?.revision !== revision) {
        const rounds = listRoundMarkets(offchain);
        const text = (round: RoundMarket) => `${round.asset}:${round.interval}:${round.conditionId}`;
        rounds.sort((a, b) => b.startTs - a.startTs || (text(a) < text(b) ? -1 : 1));
        indexed = { revision, rounds };
      }
      return indexed.rounds;
    },
  };
}
