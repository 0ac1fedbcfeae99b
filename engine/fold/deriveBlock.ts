// The derive step of the fold (pure given the registry): walks one block's chain events in log order, keeps the
// market registry current, and emits the position events and trade rows they mean. One dispatcher covers
// every event kind.
import { KIND, type BlockEvents } from '../chain/chainEvent.js';
import { deriveFpmmBuy, deriveFpmmFundingAdded, deriveFpmmFundingRemoved, deriveFpmmSell } from './deriveAmmEvent.js';
import type { DeriveContext } from './deriveContext.js';
import {
  deriveAdapterRedemption,
  deriveAdapterSplitOrMerge,
  deriveCtfRedemption,
  deriveCtfSplitOrMerge,
  derivePositionsConverted,
  deriveTransferBatch,
  deriveTransferSingle,
} from './deriveCtfEvent.js';
import { deriveFeeRefunded, deriveOrderFilledV1, deriveOrderFilledV2 } from './deriveFill.js';
import {
  deriveAnswerUpdated,
  deriveConditionPreparation,
  deriveConditionResolution,
  deriveFpmmCreation,
  deriveMarketPrepared,
  deriveQuestionPrepared,
  deriveTokenRegistered,
} from './deriveRegistryEvent.js';
import { createTxContext, enterTx } from './txContext.js';
import { deriveV2Event } from './deriveV2Event.js';
import { assert } from '../assert.js';

export function deriveBlock(ctx: DeriveContext, block: BlockEvents): void {
  // The log keeps block numbers and times as f64s of the source's quantities, checked non-negative integers there.
  assert(Number.isSafeInteger(block.block) && block.block >= 0, 'a block derived has a number');
  assert(Number.isSafeInteger(block.ts) && block.ts >= 0, 'a block derived has a time');
  const clock = { block: block.block, ts: block.ts };
  const tx = createTxContext();
  let previousLogIndex = -1;
  for (const event of block.events) {
    // The sources refuse a log out of order (readCaptureBatches) or sort them (fetchRangeLogs), and the log keeps a
    // block's events as given: a fill's (block, log index) names it once, and a refund follows its fill.
    assert(event.logIndex > previousLogIndex, "a block's events are derived in log order");
    previousLogIndex = event.logIndex;
    enterTx(tx, event.tx);
    switch (event.kind) {
      case KIND.conditionPreparation:
        deriveConditionPreparation(ctx, clock, event);
        break;
      case KIND.conditionResolution:
        deriveConditionResolution(ctx, clock, event);
        break;
      case KIND.ctfSplit:
        deriveCtfSplitOrMerge(ctx, clock, event, false);
        break;
      case KIND.ctfMerge:
        deriveCtfSplitOrMerge(ctx, clock, event, true);
        break;
      case KIND.ctfRedemption:
        deriveCtfRedemption(ctx, clock, event);
        break;
      case KIND.transferSingle:
        deriveTransferSingle(ctx, clock, event);
        break;
      case KIND.transferBatch:
        deriveTransferBatch(ctx, clock, event);
        break;
      case KIND.orderFilledV1:
        deriveOrderFilledV1(ctx, clock, tx, event);
        break;
      case KIND.orderFilledV2:
        deriveOrderFilledV2(ctx, clock, tx, event);
        break;
      // A match closes with OrdersMatched; the taker's fill already reset the maker list.
      case KIND.ordersMatchedV1:
      case KIND.ordersMatchedV2:
        tx.makers.length = 0;
        break;
      case KIND.tokenRegistered:
        deriveTokenRegistered(ctx, event);
        break;
      // FeeCharged repeats the fee the fills carry.
      case KIND.feeChargedV1:
      case KIND.feeChargedV2:
        break;
      case KIND.feeRefunded:
        deriveFeeRefunded(ctx, tx, event);
        break;
      case KIND.marketPrepared:
        deriveMarketPrepared(ctx, event);
        break;
      case KIND.questionPrepared:
        deriveQuestionPrepared(ctx, event);
        break;
      // The CTF's ConditionResolution, emitted just before, carries the payouts.
      case KIND.outcomeReported:
        break;
      case KIND.adapterSplit:
        deriveAdapterSplitOrMerge(ctx, clock, event, false);
        break;
      case KIND.adapterMerge:
        deriveAdapterSplitOrMerge(ctx, clock, event, true);
        break;
      case KIND.positionsConverted:
        derivePositionsConverted(ctx, clock, event);
        break;
      case KIND.adapterRedemption:
        deriveAdapterRedemption(ctx, clock, event);
        break;
      case KIND.fpmmCreation:
        deriveFpmmCreation(ctx, event);
        break;
      case KIND.fpmmBuy:
        deriveFpmmBuy(ctx, clock, event);
        break;
      case KIND.fpmmSell:
        deriveFpmmSell(ctx, clock, event);
        break;
      case KIND.fpmmFundingAdded:
        deriveFpmmFundingAdded(ctx, clock, event);
        break;
      case KIND.fpmmFundingRemoved:
        deriveFpmmFundingRemoved(ctx, clock, event);
        break;
      case KIND.answerUpdated:
        deriveAnswerUpdated(ctx, clock, event);
        break;
      case KIND.requestReported:
        ctx.registry.putRoundReport({
          questionId: event.questionId,
          requestId: event.requestId,
          startPrice: event.startPrice,
          endPrice: event.endPrice,
          payout: event.payout,
          block: clock.block,
        });
        break;
      case KIND.unknownTopic:
        ctx.registry.countUnknownTopic(event.topic0);
        break;
      // The Protocol V2 kinds (an unknown kind fails there).
      default:
        deriveV2Event(ctx, clock, tx, event);
    }
  }
}
