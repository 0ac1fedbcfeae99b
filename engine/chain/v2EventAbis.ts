// The Protocol V2 stack's events tally reads (docs/venue-v2.md 3, docs/design.md 10), as declared in the v1.2.0 source
// (polymarket-v2-external: PositionManager.sol, Exchange.sol, abstract/BaseModule.sol, CombinatorialModule.sol,
// migration/BaseMigrationMixin.sol),
// with the source's parameter names and `indexed` markers; UDVTs written as their ABI types (ConditionId bytes31,
// EventId bytes29, PositionId uint256). Keyed by our kind code; the codes start at 40, apart from the first
// ledger's. The decoder's layout is read from these signatures, so field order is never restated by hand.
import { parseAbiItem, toEventSelector, type AbiEvent } from 'viem';

/** Which contract emits the event: the decoder routes a topic by its emitter. */
export type V2Emitter = 'positionManager' | 'exchangeV3' | 'module' | 'combinatorial' | 'autoRedeemer' | 'router';

export const V2_KIND = {
  v2TransferSingle: 40,
  v2TransferBatch: 41,
  v3OrderFilled: 42,
  v3OrdersMatched: 43,
  v3FeeCharged: 44,
  v2PositionsSplit: 45,
  v2PositionsMerged: 46,
  v2PositionRedeemed: 47,
  v2ConditionResolved: 48,
  v2ResultReported: 49,
  v2EventPrepared: 50,
  comboConditionPrepared: 51,
  comboSplitOnCondition: 52,
  comboMergedOnCondition: 53,
  comboSplitOnEvent: 54,
  comboMergedOnEvent: 55,
  comboConvertedOnEvent: 56,
  comboExtracted: 57,
  comboInjected: 58,
  comboConvertedToYesBasket: 59,
  comboMergedFromYesBasket: 60,
  comboCompressed: 61,
  comboUnwrapped: 62,
  comboWrapped: 63,
  v2PositionMigrated: 64,
  v2MigrationConditionRegistered: 65,
  v2AutoRedemption: 66,
  v2MigrationResolved: 67,
  negRiskRemainingDerivableAsNo: 68,
  negRiskSyntheticDerivableAsYes: 69,
  negRiskHorizontalSplit: 70,
  negRiskHorizontalMerge: 71,
  negRiskPositionConverted: 72,
  routerPositionSplit: 73,
  routerPositionsMerged: 74,
  routerPositionRedeemed: 75,
  routerHorizontalSplit: 76,
  routerHorizontalMerge: 77,
  routerPositionConverted: 78,
  routerCollateralReturned: 79,
} as const;
export type V2Kind = (typeof V2_KIND)[keyof typeof V2_KIND];

export function isV2Kind(kind: number): kind is V2Kind {
  return kind >= V2_KIND.v2TransferSingle;
}

/** Emitters and signatures. PositionsSplit/Merged/Redeemed: one signature for modules 1, 2 and 3 (BaseModule). */
export const V2_EVENTS: { [K in V2Kind]: { emitter: V2Emitter | 'anyModule'; signature: string } } = {
  40: {
    emitter: 'positionManager',
    signature:
      'event TransferSingle(address indexed operator, address indexed from, address indexed to, uint256 id, uint256 amount)',
  },
  41: {
    emitter: 'positionManager',
    signature:
      'event TransferBatch(address indexed operator, address indexed from, address indexed to, uint256[] ids, uint256[] amounts)',
  },
  42: {
    emitter: 'exchangeV3',
    signature:
      'event OrderFilled(bytes32 indexed orderHash, address indexed maker, address indexed taker, uint8 side, uint256 tokenId, uint256 makerAmountFilled, uint256 takerAmountFilled, uint256 fee, bytes32 builder, bytes32 metadata)',
  },
  43: {
    emitter: 'exchangeV3',
    signature:
      'event OrdersMatched(bytes32 indexed takerOrderHash, address indexed takerOrderMaker, uint8 side, uint256 tokenId, uint256 makerAmountFilled, uint256 takerAmountFilled)',
  },
  44: { emitter: 'exchangeV3', signature: 'event FeeCharged(address indexed receiver, uint256 amount)' },
  45: {
    emitter: 'anyModule',
    signature:
      'event PositionsSplit(address indexed initiator, bytes31 indexed conditionId, address indexed recipient0, address recipient1, uint256 amount)',
  },
  46: {
    emitter: 'anyModule',
    signature:
      'event PositionsMerged(address indexed initiator, bytes31 indexed conditionId, address indexed recipient, uint256 amount)',
  },
  47: {
    emitter: 'anyModule',
    signature:
      'event PositionRedeemed(address indexed initiator, uint256 indexed positionId, address indexed recipient, uint256 amount, uint256 payout)',
  },
  48: { emitter: 'module', signature: 'event ConditionResolved(bytes31 indexed conditionId, uint256[] result)' },
  49: {
    emitter: 'module',
    signature: 'event ResultReported(address indexed resolver, bytes31 indexed conditionId, uint256[] result)',
  },
  50: {
    emitter: 'module',
    signature: 'event EventPrepared(bytes29 indexed eventId, uint256 conditionCount, bytes32 legacyEventId)',
  },
  51: {
    emitter: 'combinatorial',
    signature: 'event CombinatorialConditionPrepared(bytes31 indexed conditionId, uint256[] legs)',
  },
  52: {
    emitter: 'combinatorial',
    signature:
      'event SplitOnCondition(address indexed user, bytes31 indexed parentConditionId, bytes31 childYesConditionId, bytes31 childNoConditionId, address recipient0, address recipient1, uint256 amount)',
  },
  53: {
    emitter: 'combinatorial',
    signature:
      'event MergedOnCondition(address indexed user, bytes31 indexed parentConditionId, bytes31 childYesConditionId, bytes31 childNoConditionId, address recipient, uint256 amount)',
  },
  54: {
    emitter: 'combinatorial',
    signature:
      'event SplitOnEvent(address indexed user, bytes31 indexed parentConditionId, bytes29 indexed eventId, address[] recipients, uint256 amount)',
  },
  55: {
    emitter: 'combinatorial',
    signature:
      'event MergedOnEvent(address indexed user, bytes31 indexed parentConditionId, bytes29 indexed eventId, address recipient, uint256 amount)',
  },
  56: {
    emitter: 'combinatorial',
    signature:
      'event ConvertedOnEvent(address indexed user, bytes31 indexed parentConditionId, bytes29 indexed eventId, uint256 conditionIndex, address[] recipients, uint256 amount)',
  },
  57: {
    emitter: 'combinatorial',
    signature:
      'event Extracted(address indexed user, bytes31 indexed fullConditionId, bytes31 reducedConditionId, bytes31 residualConditionId, address recipient0, address recipient1, uint256 amount)',
  },
  58: {
    emitter: 'combinatorial',
    signature:
      'event Injected(address indexed user, bytes31 indexed fullConditionId, bytes31 reducedConditionId, bytes31 residualConditionId, address recipient, uint256 amount)',
  },
  59: {
    emitter: 'combinatorial',
    signature:
      'event ConvertedToYesBasket(address indexed user, bytes31 indexed fullConditionId, address[] recipients, uint256 amount)',
  },
  60: {
    emitter: 'combinatorial',
    signature:
      'event MergedFromYesBasket(address indexed user, bytes31 indexed fullConditionId, address recipient, uint256 amount)',
  },
  61: {
    emitter: 'combinatorial',
    signature:
      'event Compressed(address indexed user, uint256 indexed oldPositionId, uint256 indexed newPositionId, address recipient, uint256 amount, uint256 positionAmount, uint256 collateralOut)',
  },
  62: {
    emitter: 'combinatorial',
    signature:
      'event Unwrapped(address indexed user, uint256 combinatorialPositionId, uint256 underlyingPositionId, address recipient, uint256 amount)',
  },
  63: {
    emitter: 'combinatorial',
    signature:
      'event Wrapped(address indexed user, uint256 underlyingPositionId, uint256 combinatorialPositionId, address recipient, uint256 amount)',
  },
  // migration/BaseMigrationMixin.sol (MigrationEvents), emitted by modules 1 and 2.
  64: {
    emitter: 'module',
    signature:
      'event PositionMigrated(address indexed from, bytes31 indexed conditionId, uint256 indexed positionId, uint256 outcomeIndex, uint256 amount)',
  },
  65: {
    emitter: 'module',
    signature: 'event MigrationConditionRegistered(bytes31 indexed v2ConditionId, bytes32 indexed legacyConditionId)',
  },
  // utils/AutoRedeemer.sol: the holder of an auto-redeemed V2 position (the module's event names the redeemer).
  66: {
    emitter: 'autoRedeemer',
    signature: 'event Redemption(address indexed from, uint256 indexed positionId, uint256 payout)',
  },
  67: {
    emitter: 'module',
    signature:
      'event MigrationResolved(bytes31 indexed conditionId, bytes32 indexed legacyConditionId, uint256 legacyPayout0, uint256 legacyPayout1, uint256 result0, uint256 result1)',
  },
  // NegRiskModule.sol: derived results and the event-wide moves.
  68: { emitter: 'module', signature: 'event RemainingConditionsDerivableAsNo(bytes29 indexed eventId)' },
  69: {
    emitter: 'module',
    signature: 'event SyntheticConditionDerivableAsYes(bytes29 indexed eventId, bytes31 indexed conditionId)',
  },
  70: {
    emitter: 'module',
    signature:
      'event HorizontalSplit(address indexed initiator, bytes29 indexed eventId, address indexed recipient, uint256 amount)',
  },
  71: {
    emitter: 'module',
    signature:
      'event HorizontalMerge(address indexed initiator, bytes29 indexed eventId, address indexed recipient, uint256 amount)',
  },
  72: {
    emitter: 'module',
    signature:
      'event PositionConverted(address indexed initiator, bytes29 indexed eventId, address indexed recipient, uint256 conditionIndex, uint256 amount)',
  },
  // routers/Router.sol: who called (attribution only; the modules' events carry every amount and recipient).
  73: {
    emitter: 'router',
    signature: 'event RouterPositionSplit(address indexed initiator, bytes31 indexed conditionId, uint256 amount)',
  },
  74: {
    emitter: 'router',
    signature: 'event RouterPositionsMerged(address indexed initiator, bytes31 indexed conditionId, uint256 amount)',
  },
  75: {
    emitter: 'router',
    signature: 'event RouterPositionRedeemed(address indexed initiator, uint256 indexed positionId, uint256 amount)',
  },
  76: {
    emitter: 'router',
    signature: 'event RouterHorizontalSplit(address indexed initiator, bytes29 indexed eventId, uint256 amount)',
  },
  77: {
    emitter: 'router',
    signature: 'event RouterHorizontalMerge(address indexed initiator, bytes29 indexed eventId, uint256 amount)',
  },
  78: {
    emitter: 'router',
    signature:
      'event RouterPositionConverted(address indexed initiator, bytes29 indexed eventId, uint256 conditionIndex, uint256 amount)',
  },
  79: {
    emitter: 'router',
    signature: 'event CombinatorialCollateralReturned(address indexed initiator, uint256 operationCount)',
  },
};

/** uint256 fields that are position ids: kept as 64 hex like CTF token ids; other uint256 are safe integers. */
export const V2_ID_FIELDS: ReadonlySet<string> = new Set([
  'id',
  'ids',
  'tokenId',
  'positionId',
  'oldPositionId',
  'newPositionId',
  'combinatorialPositionId',
  'underlyingPositionId',
  'legs',
]);

export const V2_EVENT_ABIS = Object.fromEntries(
  Object.entries(V2_EVENTS).map(([kind, { signature }]) => [kind, parseAbiItem(signature) as AbiEvent]),
) as { [K in V2Kind]: AbiEvent };

export const V2_EVENT_TOPICS = Object.fromEntries(
  Object.entries(V2_EVENTS).map(([kind, { signature }]) => [kind, toEventSelector(signature.slice('event '.length))]),
) as { [K in V2Kind]: `0x${string}` };
