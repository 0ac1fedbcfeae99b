// ComboExtras (spec 2.3 "not shown"; docs/design.md 10): on every row of a Protocol V2 position, a combo's or a v2
// leg's, in every form. Statuses describe the row's own token: a NO row of a combo whose YES lost is RESOLVED_WIN. A
// combo's own mark stays its last fill price; each leg carries its token's last fill price, never a product.
import { tokenIdToDecimal } from '../../engine/chain/tokenId.js';
import { RESULT_DENOMINATOR, V2_MODULE } from '../../engine/chain/v2PositionIds.js';
import type { MarketMetadata } from '../../engine/offchain/marketMetadata.js';
import { FLAG, type Position } from '../../engine/reducers/position.js';
import type { MarketRecord } from '../../engine/state/marketRecords.js';
import { comboLegs, comboResolution, legResult } from '../../engine/state/comboResolution.js';
import { publicConditionId } from '../../engine/valuation/publicConditionId.js';

export type ComboStatus = 'OPEN' | 'PARTIAL' | 'RESOLVED_WIN' | 'RESOLVED_LOSS' | 'RESOLVED_PARTIAL';

export interface ComboLegRow {
  legIndex: number;
  positionId: string;
  moduleId: number;
  conditionId: string;
  outcomeIndex: number;
  outcome: string | null;
  status: ComboStatus;
  settle: number | null;
  resolvedAt: number | null;
  mark: number | null;
}

export interface ComboExtras {
  ledger: 'v2';
  moduleId: number;
  v2ConditionId: string;
  comboStatus: ComboStatus;
  legsTotal: number;
  legsResolved: number;
  legsPending: number;
  resolvedFactor: number;
  legacyConditionId: string | null;
  migrated: boolean;
  legs?: ComboLegRow[];
}

/** What the rows read of other markets: a leg's record and its metadata (the server's cached reads). */
export interface ComboReads {
  market(id: string): { market: MarketRecord | null; metadata: MarketMetadata | null };
}

/** The status of a token paying `payout` of 1,000,000 once terminal. */
function terminalStatus(payout: number): ComboStatus {
  return payout === RESULT_DENOMINATOR ? 'RESOLVED_WIN' : payout === 0 ? 'RESOLVED_LOSS' : 'RESOLVED_PARTIAL';
}

function markOf(market: MarketRecord | null, outcomeIndex: number): number | null {
  const mark = market?.marks[outcomeIndex];
  return mark && mark.shares > 0 ? mark.usd / mark.shares : null;
}

/** The extras of a V2 position's row; null for the first ledger's rows, which carry none. */
export function comboExtras(
  market: MarketRecord | null,
  outcomeIndex: number,
  position: Position,
  reads: ComboReads,
): ComboExtras | null {
  if (!market?.v2) return null;
  const { moduleId, legacyConditionId } = market.v2;
  const own = (payout: number | null) => (payout === null ? 'OPEN' : terminalStatus(payout));
  const extras: ComboExtras = {
    ledger: 'v2',
    moduleId,
    v2ConditionId: market.conditionId.slice(0, 64),
    comboStatus: 'OPEN',
    legsTotal: 1,
    legsResolved: 0,
    legsPending: 1,
    resolvedFactor: 1,
    legacyConditionId,
    migrated: (position.flags & FLAG.migrated) !== 0,
  };
  if (moduleId !== V2_MODULE.combinatorial) {
    const result = legResult(market, outcomeIndex);
    const yes = legResult(market, 0);
    extras.comboStatus = own(result.payout);
    extras.legsResolved = result.payout === null ? 0 : 1;
    extras.legsPending = 1 - extras.legsResolved;
    extras.resolvedFactor = yes.payout === null ? 1 : yes.payout / RESULT_DENOMINATOR;
    return extras;
  }
  const legs = comboLegs(market);
  const entries = legs.map((leg) => reads.market(leg.market));
  const results = legs.map((leg, i) => legResult(entries[i]!.market, leg.outcomeIndex));
  const resolution = comboResolution(results);
  const terminal = resolution.terminal;
  extras.legsTotal = legs.length;
  extras.legsResolved = resolution.legsResolved;
  extras.legsPending = legs.length - resolution.legsResolved;
  extras.resolvedFactor = resolution.resolvedFactor / RESULT_DENOMINATOR;
  extras.comboStatus = terminal
    ? terminalStatus(outcomeIndex === 0 ? terminal.yes : terminal.no)
    : resolution.legsResolved > 0
      ? 'PARTIAL'
      : 'OPEN';
  extras.legs = legs.map((leg, i) => {
    const legMarket = entries[i]!.market;
    const result = results[i]!;
    return {
      legIndex: i,
      positionId: tokenIdToDecimal(leg.positionId),
      moduleId: parseInt(leg.positionId.slice(0, 2), 16),
      conditionId: legMarket ? publicConditionId(legMarket) : leg.market.slice(0, 64),
      outcomeIndex: leg.outcomeIndex,
      outcome: entries[i]!.metadata?.outcomes?.[leg.outcomeIndex] ?? null,
      status: own(result.payout),
      settle: result.payout === null ? null : result.payout / RESULT_DENOMINATOR,
      resolvedAt: result.payout === null ? null : result.resolvedAt,
      mark: markOf(legMarket, leg.outcomeIndex),
    };
  });
  return extras;
}
