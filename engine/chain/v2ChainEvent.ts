// Protocol V2 chain events as the log stores them (docs/design.md 10, docs/venue-v2.md 3): one interface per kind,
// fields named as in the source's signatures (engine/chain/v2EventAbis.ts), plus `emitter`, the contract that emitted
// the log (module 1, 2 or 3 share PositionsSplit, PositionsMerged and PositionRedeemed). Forms: addresses 0x + 40
// hex; position ids 64 hex (as CTF token ids); a bytes31 condition id or bytes29 event id is kept as the 32-byte
// word it is shifted into (0x + the id's hex + zero bytes), the form the log and state's condition ids take;
// amounts and results are safe integers.
import { AssertionFailure } from '../assert.js';
import { V2_EVENT_ABIS, V2_ID_FIELDS, V2_KIND, type V2Kind } from './v2EventAbis.js';

interface V2Base<K extends V2Kind> {
  kind: K;
  logIndex: number;
  txIndex: number;
  tx: string;
  emitter: string;
}

export interface V2TransferSingle extends V2Base<typeof V2_KIND.v2TransferSingle> {
  operator: string;
  from: string;
  to: string;
  id: string;
  amount: number;
}
export interface V2TransferBatch extends V2Base<typeof V2_KIND.v2TransferBatch> {
  operator: string;
  from: string;
  to: string;
  ids: string[];
  amounts: number[];
}
export interface V3OrderFilled extends V2Base<typeof V2_KIND.v3OrderFilled> {
  orderHash: string;
  maker: string;
  taker: string;
  side: number;
  tokenId: string;
  makerAmountFilled: number;
  takerAmountFilled: number;
  fee: number;
  builder: string;
  metadata: string;
}
export interface V3OrdersMatched extends V2Base<typeof V2_KIND.v3OrdersMatched> {
  takerOrderHash: string;
  takerOrderMaker: string;
  side: number;
  tokenId: string;
  makerAmountFilled: number;
  takerAmountFilled: number;
}
export interface V3FeeCharged extends V2Base<typeof V2_KIND.v3FeeCharged> {
  receiver: string;
  amount: number;
}
export interface V2PositionsSplit extends V2Base<typeof V2_KIND.v2PositionsSplit> {
  initiator: string;
  conditionId: string;
  recipient0: string;
  recipient1: string;
  amount: number;
}
export interface V2PositionsMerged extends V2Base<typeof V2_KIND.v2PositionsMerged> {
  initiator: string;
  conditionId: string;
  recipient: string;
  amount: number;
}
export interface V2PositionRedeemed extends V2Base<typeof V2_KIND.v2PositionRedeemed> {
  initiator: string;
  positionId: string;
  recipient: string;
  amount: number;
  payout: number;
}
export interface V2ConditionResolved extends V2Base<typeof V2_KIND.v2ConditionResolved> {
  conditionId: string;
  result: number[];
}
export interface V2ResultReported extends V2Base<typeof V2_KIND.v2ResultReported> {
  resolver: string;
  conditionId: string;
  result: number[];
}
export interface V2EventPrepared extends V2Base<typeof V2_KIND.v2EventPrepared> {
  eventId: string;
  conditionCount: number;
  legacyEventId: string;
}
export interface ComboConditionPrepared extends V2Base<typeof V2_KIND.comboConditionPrepared> {
  conditionId: string;
  legs: string[];
}
export interface ComboSplitOnCondition extends V2Base<typeof V2_KIND.comboSplitOnCondition> {
  user: string;
  parentConditionId: string;
  childYesConditionId: string;
  childNoConditionId: string;
  recipient0: string;
  recipient1: string;
  amount: number;
}
export interface ComboMergedOnCondition extends V2Base<typeof V2_KIND.comboMergedOnCondition> {
  user: string;
  parentConditionId: string;
  childYesConditionId: string;
  childNoConditionId: string;
  recipient: string;
  amount: number;
}
export interface ComboSplitOnEvent extends V2Base<typeof V2_KIND.comboSplitOnEvent> {
  user: string;
  parentConditionId: string;
  eventId: string;
  recipients: string[];
  amount: number;
}
export interface ComboMergedOnEvent extends V2Base<typeof V2_KIND.comboMergedOnEvent> {
  user: string;
  parentConditionId: string;
  eventId: string;
  recipient: string;
  amount: number;
}
export interface ComboConvertedOnEvent extends V2Base<typeof V2_KIND.comboConvertedOnEvent> {
  user: string;
  parentConditionId: string;
  eventId: string;
  conditionIndex: number;
  recipients: string[];
  amount: number;
}
export interface ComboExtracted extends V2Base<typeof V2_KIND.comboExtracted> {
  user: string;
  fullConditionId: string;
  reducedConditionId: string;
  residualConditionId: string;
  recipient0: string;
  recipient1: string;
  amount: number;
}
export interface ComboInjected extends V2Base<typeof V2_KIND.comboInjected> {
  user: string;
  fullConditionId: string;
  reducedConditionId: string;
  residualConditionId: string;
  recipient: string;
  amount: number;
}
export interface ComboConvertedToYesBasket extends V2Base<typeof V2_KIND.comboConvertedToYesBasket> {
  user: string;
  fullConditionId: string;
  recipients: string[];
  amount: number;
}
export interface ComboMergedFromYesBasket extends V2Base<typeof V2_KIND.comboMergedFromYesBasket> {
  user: string;
  fullConditionId: string;
  recipient: string;
  amount: number;
}
export interface ComboCompressed extends V2Base<typeof V2_KIND.comboCompressed> {
  user: string;
  oldPositionId: string;
  newPositionId: string;
  recipient: string;
  amount: number;
  positionAmount: number;
  collateralOut: number;
}
export interface ComboUnwrapped extends V2Base<typeof V2_KIND.comboUnwrapped> {
  user: string;
  combinatorialPositionId: string;
  underlyingPositionId: string;
  recipient: string;
  amount: number;
}
export interface ComboWrapped extends V2Base<typeof V2_KIND.comboWrapped> {
  user: string;
  underlyingPositionId: string;
  combinatorialPositionId: string;
  recipient: string;
  amount: number;
}
export interface V2PositionMigrated extends V2Base<typeof V2_KIND.v2PositionMigrated> {
  from: string;
  conditionId: string;
  positionId: string;
  outcomeIndex: number;
  amount: number;
}
export interface V2MigrationConditionRegistered extends V2Base<typeof V2_KIND.v2MigrationConditionRegistered> {
  v2ConditionId: string;
  legacyConditionId: string;
}
export interface V2AutoRedemption extends V2Base<typeof V2_KIND.v2AutoRedemption> {
  from: string;
  positionId: string;
  payout: number;
}
export interface V2MigrationResolved extends V2Base<typeof V2_KIND.v2MigrationResolved> {
  conditionId: string;
  legacyConditionId: string;
  legacyPayout0: number;
  legacyPayout1: number;
  result0: number;
  result1: number;
}
export interface NegRiskRemainingDerivableAsNo extends V2Base<typeof V2_KIND.negRiskRemainingDerivableAsNo> {
  eventId: string;
}
export interface NegRiskSyntheticDerivableAsYes extends V2Base<typeof V2_KIND.negRiskSyntheticDerivableAsYes> {
  eventId: string;
  conditionId: string;
}
export interface NegRiskHorizontalSplit extends V2Base<typeof V2_KIND.negRiskHorizontalSplit> {
  initiator: string;
  eventId: string;
  recipient: string;
  amount: number;
}
export interface NegRiskHorizontalMerge extends V2Base<typeof V2_KIND.negRiskHorizontalMerge> {
  initiator: string;
  eventId: string;
  recipient: string;
  amount: number;
}
export interface NegRiskPositionConverted extends V2Base<typeof V2_KIND.negRiskPositionConverted> {
  initiator: string;
  eventId: string;
  recipient: string;
  conditionIndex: number;
  amount: number;
}

/** The Router's own events: who called it (initiator) and with what; the modules' events carry the rest. */
export interface RouterConditionCall
  extends V2Base<typeof V2_KIND.routerPositionSplit | typeof V2_KIND.routerPositionsMerged> {
  initiator: string;
  conditionId: string;
  amount: number;
}
export interface RouterPositionRedeemed extends V2Base<typeof V2_KIND.routerPositionRedeemed> {
  initiator: string;
  positionId: string;
  amount: number;
}
export interface RouterEventCall
  extends V2Base<typeof V2_KIND.routerHorizontalSplit | typeof V2_KIND.routerHorizontalMerge> {
  initiator: string;
  eventId: string;
  amount: number;
}
export interface RouterPositionConverted extends V2Base<typeof V2_KIND.routerPositionConverted> {
  initiator: string;
  eventId: string;
  conditionIndex: number;
  amount: number;
}
export interface RouterCollateralReturned extends V2Base<typeof V2_KIND.routerCollateralReturned> {
  initiator: string;
  operationCount: number;
}

export type V2ChainEvent =
  | V2TransferSingle
  | V2TransferBatch
  | V3OrderFilled
  | V3OrdersMatched
  | V3FeeCharged
  | V2PositionsSplit
  | V2PositionsMerged
  | V2PositionRedeemed
  | V2ConditionResolved
  | V2ResultReported
  | V2EventPrepared
  | ComboConditionPrepared
  | ComboSplitOnCondition
  | ComboMergedOnCondition
  | ComboSplitOnEvent
  | ComboMergedOnEvent
  | ComboConvertedOnEvent
  | ComboExtracted
  | ComboInjected
  | ComboConvertedToYesBasket
  | ComboMergedFromYesBasket
  | ComboCompressed
  | ComboUnwrapped
  | ComboWrapped
  | V2PositionMigrated
  | V2MigrationConditionRegistered
  | V2AutoRedemption
  | V2MigrationResolved
  | NegRiskRemainingDerivableAsNo
  | NegRiskSyntheticDerivableAsYes
  | NegRiskHorizontalSplit
  | NegRiskHorizontalMerge
  | NegRiskPositionConverted
  | RouterConditionCall
  | RouterPositionRedeemed
  | RouterEventCall
  | RouterPositionConverted
  | RouterCollateralReturned;

/** How the log stores a V2 field, read from its ABI type (chainEvent.ts FieldType; the names are the ABI's). */
export type V2FieldType = 'address' | 'token' | 'condition' | 'bytes32' | 'number' | 'numbers' | 'tokens' | 'addresses';

function fieldTypeOf(type: string, name: string): V2FieldType {
  switch (type) {
    case 'address':
      return 'address';
    case 'uint256':
      return V2_ID_FIELDS.has(name) ? 'token' : 'number';
    case 'uint8':
      return 'number';
    case 'bytes31':
    case 'bytes29':
      return 'condition';
    case 'bytes32':
      return 'bytes32';
    case 'uint256[]':
      return V2_ID_FIELDS.has(name) ? 'tokens' : 'numbers';
    case 'address[]':
      return 'addresses';
    default:
      throw new AssertionFailure(`v2 event field ${name}: no log form for ${type}`);
  }
}

/** The log's schema of every V2 kind: the emitter, then the signature's fields in order. */
export const V2_EVENT_SCHEMA = Object.fromEntries(
  Object.entries(V2_EVENT_ABIS).map(([kind, abi]) => [
    kind,
    Object.fromEntries([
      ['emitter', 'address'],
      ...abi.inputs.map((input) => [input.name!, fieldTypeOf(input.type, input.name!)]),
    ]),
  ]),
) as { [K in V2Kind]: Readonly<Record<string, V2FieldType>> };

/** A bytes31 condition id (0x + 62 hex) or bytes29 event id (0x + 58 hex) as the 32-byte word it is kept in. */
export function v2IdWord(id: string): string {
  return id.padEnd(66, '0');
}
