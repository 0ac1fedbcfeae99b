// One-line emitters for the CTF's own events (ConditionalTokens is the ERC-1155 every position lives in): the
// demo's contract calls compose these in the order the contracts emit them. Each writes one log at the next
// log index of the current transaction.
import { KIND } from '../../engine/chain/chainEvent.js';
import { ZERO_BYTES32, type DemoContext } from './demoContext.js';

export function logTransferSingle(
  ctx: DemoContext,
  operator: string,
  from: string,
  to: string,
  tokenId: string,
  value: number,
): void {
  ctx.capture.log(
    { kind: KIND.transferSingle, logIndex: 0, txIndex: 0, tx: '', operator, from, to, tokenId, value },
    ctx.addresses.ctf,
  );
}

export function logTransferBatch(
  ctx: DemoContext,
  operator: string,
  from: string,
  to: string,
  tokenIds: string[],
  values: number[],
): void {
  ctx.capture.log(
    { kind: KIND.transferBatch, logIndex: 0, txIndex: 0, tx: '', operator, from, to, tokenIds, values },
    ctx.addresses.ctf,
  );
}

/** CTF PositionSplit of a full binary partition. */
export function logCtfSplit(
  ctx: DemoContext,
  stakeholder: string,
  collateral: string,
  conditionId: string,
  amount: number,
): void {
  ctx.capture.log(
    {
      kind: KIND.ctfSplit,
      logIndex: 0,
      txIndex: 0,
      tx: '',
      stakeholder,
      collateral,
      parentCollectionId: ZERO_BYTES32,
      conditionId,
      partition: [1, 2],
      amount,
    },
    ctx.addresses.ctf,
  );
}

/** CTF PositionsMerge of a full binary partition. */
export function logCtfMerge(
  ctx: DemoContext,
  stakeholder: string,
  collateral: string,
  conditionId: string,
  amount: number,
): void {
  ctx.capture.log(
    {
      kind: KIND.ctfMerge,
      logIndex: 0,
      txIndex: 0,
      tx: '',
      stakeholder,
      collateral,
      parentCollectionId: ZERO_BYTES32,
      conditionId,
      partition: [1, 2],
      amount,
    },
    ctx.addresses.ctf,
  );
}

export function logCtfRedemption(
  ctx: DemoContext,
  redeemer: string,
  collateral: string,
  conditionId: string,
  indexSets: number[],
  payout: number,
): void {
  ctx.capture.log(
    {
      kind: KIND.ctfRedemption,
      logIndex: 0,
      txIndex: 0,
      tx: '',
      redeemer,
      collateral,
      parentCollectionId: ZERO_BYTES32,
      conditionId,
      indexSets,
      payout,
    },
    ctx.addresses.ctf,
  );
}

export function logConditionPreparation(
  ctx: DemoContext,
  conditionId: string,
  oracle: string,
  questionId: string,
): void {
  ctx.capture.log(
    {
      kind: KIND.conditionPreparation,
      logIndex: 0,
      txIndex: 0,
      tx: '',
      conditionId,
      oracle,
      questionId,
      outcomeSlotCount: 2,
    },
    ctx.addresses.ctf,
  );
}

export function logConditionResolution(
  ctx: DemoContext,
  conditionId: string,
  oracle: string,
  questionId: string,
  payoutNumerators: number[],
): void {
  ctx.capture.log(
    {
      kind: KIND.conditionResolution,
      logIndex: 0,
      txIndex: 0,
      tx: '',
      conditionId,
      oracle,
      questionId,
      outcomeSlotCount: 2,
      payoutNumerators,
    },
    ctx.addresses.ctf,
  );
}
