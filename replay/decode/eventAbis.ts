// The venue's event ABIs (docs/venue.md 2), parsed by viem: the single source of every topic0 and of the
// reference decoding the fast decoders are tested against. Keyed by our event kind.
import { parseAbiItem, toEventSelector, type AbiEvent } from 'viem';
import { KIND, type Kind, type V1Kind } from '../../engine/chain/chainEvent.js';
import { V2_EVENT_ABIS, V2_EVENT_TOPICS } from '../../engine/chain/v2EventAbis.js';

const SIGNATURES: { [K in V1Kind]: string } = {
  [KIND.conditionPreparation]:
    'event ConditionPreparation(bytes32 indexed conditionId, address indexed oracle, bytes32 indexed questionId, uint256 outcomeSlotCount)',
  [KIND.conditionResolution]:
    'event ConditionResolution(bytes32 indexed conditionId, address indexed oracle, bytes32 indexed questionId, uint256 outcomeSlotCount, uint256[] payoutNumerators)',
  [KIND.ctfSplit]:
    'event PositionSplit(address indexed stakeholder, address collateralToken, bytes32 indexed parentCollectionId, bytes32 indexed conditionId, uint256[] partition, uint256 amount)',
  [KIND.ctfMerge]:
    'event PositionsMerge(address indexed stakeholder, address collateralToken, bytes32 indexed parentCollectionId, bytes32 indexed conditionId, uint256[] partition, uint256 amount)',
  [KIND.ctfRedemption]:
    'event PayoutRedemption(address indexed redeemer, address indexed collateralToken, bytes32 indexed parentCollectionId, bytes32 conditionId, uint256[] indexSets, uint256 payout)',
  [KIND.transferSingle]:
    'event TransferSingle(address indexed operator, address indexed from, address indexed to, uint256 id, uint256 value)',
  [KIND.transferBatch]:
    'event TransferBatch(address indexed operator, address indexed from, address indexed to, uint256[] ids, uint256[] values)',
  [KIND.orderFilledV1]:
    'event OrderFilled(bytes32 indexed orderHash, address indexed maker, address indexed taker, uint256 makerAssetId, uint256 takerAssetId, uint256 makerAmountFilled, uint256 takerAmountFilled, uint256 fee)',
  [KIND.ordersMatchedV1]:
    'event OrdersMatched(bytes32 indexed takerOrderHash, address indexed takerOrderMaker, uint256 makerAssetId, uint256 takerAssetId, uint256 makerAmountFilled, uint256 takerAmountFilled)',
  [KIND.tokenRegistered]:
    'event TokenRegistered(uint256 indexed token0, uint256 indexed token1, bytes32 indexed conditionId)',
  [KIND.feeChargedV1]: 'event FeeCharged(address indexed receiver, uint256 tokenId, uint256 amount)',
  [KIND.orderFilledV2]:
    'event OrderFilled(bytes32 indexed orderHash, address indexed maker, address indexed taker, uint8 side, uint256 tokenId, uint256 makerAmountFilled, uint256 takerAmountFilled, uint256 fee, bytes32 builder, bytes32 metadata)',
  [KIND.ordersMatchedV2]:
    'event OrdersMatched(bytes32 indexed takerOrderHash, address indexed takerOrderMaker, uint8 side, uint256 tokenId, uint256 makerAmountFilled, uint256 takerAmountFilled)',
  [KIND.feeChargedV2]: 'event FeeCharged(address indexed receiver, uint256 amount)',
  [KIND.feeRefunded]:
    'event FeeRefunded(bytes32 indexed orderHash, address indexed to, uint256 id, uint256 refund, uint256 indexed feeCharged)',
  [KIND.marketPrepared]:
    'event MarketPrepared(bytes32 indexed marketId, address indexed oracle, uint256 feeBips, bytes data)',
  [KIND.questionPrepared]:
    'event QuestionPrepared(bytes32 indexed marketId, bytes32 indexed questionId, uint256 index, bytes data)',
  [KIND.outcomeReported]: 'event OutcomeReported(bytes32 indexed marketId, bytes32 indexed questionId, bool outcome)',
  [KIND.adapterSplit]: 'event PositionSplit(address indexed stakeholder, bytes32 indexed conditionId, uint256 amount)',
  [KIND.adapterMerge]: 'event PositionsMerge(address indexed stakeholder, bytes32 indexed conditionId, uint256 amount)',
  [KIND.positionsConverted]:
    'event PositionsConverted(address indexed stakeholder, bytes32 indexed marketId, uint256 indexed indexSet, uint256 amount)',
  [KIND.adapterRedemption]:
    'event PayoutRedemption(address indexed redeemer, bytes32 indexed conditionId, uint256[] amounts, uint256 payout)',
  [KIND.fpmmCreation]:
    'event FixedProductMarketMakerCreation(address indexed creator, address fixedProductMarketMaker, address indexed conditionalTokens, address indexed collateralToken, bytes32[] conditionIds, uint256 fee)',
  [KIND.fpmmBuy]:
    'event FPMMBuy(address indexed buyer, uint256 investmentAmount, uint256 feeAmount, uint256 indexed outcomeIndex, uint256 outcomeTokensBought)',
  [KIND.fpmmSell]:
    'event FPMMSell(address indexed seller, uint256 returnAmount, uint256 feeAmount, uint256 indexed outcomeIndex, uint256 outcomeTokensSold)',
  [KIND.fpmmFundingAdded]:
    'event FPMMFundingAdded(address indexed funder, uint256[] amountsAdded, uint256 sharesMinted)',
  [KIND.fpmmFundingRemoved]:
    'event FPMMFundingRemoved(address indexed funder, uint256[] amountsRemoved, uint256 collateralRemovedFromFeePool, uint256 sharesBurnt)',
  [KIND.answerUpdated]: 'event AnswerUpdated(int256 indexed current, uint256 indexed roundId, uint256 updatedAt)',
  [KIND.requestReported]:
    'event RequestReported(bytes29 indexed requestId, bytes32 indexed questionId, int192 startPrice, int192 endPrice, uint256 payout)',
};

/** The viem ABI item of every kind, the Protocol V2 ones included. */
export const EVENT_ABIS = {
  ...Object.fromEntries(
    Object.entries(SIGNATURES).map(([kind, signature]) => [kind, parseAbiItem(signature) as AbiEvent]),
  ),
  ...V2_EVENT_ABIS,
} as { [K in Kind]: AbiEvent };

/** topic0 of every kind (several kinds share one: the contract that emitted it tells them apart). */
export const EVENT_TOPICS = {
  ...Object.fromEntries(
    Object.entries(SIGNATURES).map(([kind, signature]) => [kind, toEventSelector(signature.slice('event '.length))]),
  ),
  ...V2_EVENT_TOPICS,
} as { [K in Kind]: `0x${string}` };
