// Position events: what a chain event means for one wallet's positions, with every figure the rule needs
// attached (derived in engine/fold from the chain event and market state). The wallet fold applies them in
// chain order; each kind has one reducer (docs/design.md 3).

export const POSITION_EVENT = {
  bookBuy: 1,
  bookSell: 2,
  split: 3,
  merge: 4,
  redemption: 5,
  ammBuy: 6,
  ammSell: 7,
  ammReceive: 8,
  transferOut: 9,
  transferIn: 10,
  conversion: 11,
  restructure: 12,
} as const;

/**
 * `Id` names wallets, tokens and markets: their hex text where derive emits an event, the state's numbers
 * (createStateIds) where the wallet fold reads it back from a record (positionRecords).
 */
interface Base<Id> {
  wallet: Id;
  ts: number;
  block: number;
  logIndex: number;
  /**
   * The condition id of the event's tokens as the market registry knew it at this event ('' when unknown, and
   * for a conversion, whose legs are in noMarkets/yesMarkets): the market -> wallet index needs it, and
   * taking it from a later registry state would make that index depend on batch boundaries.
   */
  market: Id;
}

/** Order-book buy of `shares` for `usd`; a V1 fee is in shares (`feeShares`), a V2 fee in USD (`feeUsd`). */
export interface BookBuy<Id = string> extends Base<Id> {
  kind: typeof POSITION_EVENT.bookBuy;
  token: Id;
  shares: number;
  usd: number;
  feeShares: number;
  feeUsd: number;
}
/** Order-book sell of `shares` for `usd`, fee in USD. */
export interface BookSell<Id = string> extends Base<Id> {
  kind: typeof POSITION_EVENT.bookSell;
  token: Id;
  shares: number;
  usd: number;
  feeUsd: number;
}
/**
 * Split or merge of `amount` over the tokens of a full set: both outcome tokens [outcome 0, outcome 1], or the YES
 * of every outcome of a Protocol V2 neg-risk event (a horizontal split or merge), whose tokens are in markets of
 * their own: `markets` holds each token's then, and is empty when all are in `market`.
 */
export interface Split<Id = string> extends Base<Id> {
  kind: typeof POSITION_EVENT.split;
  tokens: Id[];
  markets: Id[];
  amount: number;
  /** Through the neg-risk adapter: spec 2.2 counts its $1-a-set basis as an approximating rule (basisApprox). */
  viaAdapter: boolean;
}
export interface Merge<Id = string> extends Base<Id> {
  kind: typeof POSITION_EVENT.merge;
  tokens: Id[];
  markets: Id[];
  amount: number;
}
/**
 * Redemption at the market's payout numerators/denominator. `amounts[i]` is the quantity of tokens[i] redeemed
 * (adapter), or null for a CTF redemption, which redeems the tracked balance; `payout` is the event's total.
 */
export interface Redemption<Id = string> extends Base<Id> {
  kind: typeof POSITION_EVENT.redemption;
  tokens: Id[];
  numerators: number[];
  denominator: number;
  amounts: number[] | null;
  payout: number;
}
/** AMM buy: `investment` (fee included) for `shares`. */
export interface AmmBuy<Id = string> extends Base<Id> {
  kind: typeof POSITION_EVENT.ammBuy;
  token: Id;
  investment: number;
  fee: number;
  shares: number;
}
/** AMM sell: `shares` for `proceeds`, the fee on top. */
export interface AmmSell<Id = string> extends Base<Id> {
  kind: typeof POSITION_EVENT.ammSell;
  token: Id;
  proceeds: number;
  fee: number;
  shares: number;
}
/** Outcome tokens an AMM pool sent back or released on funding, at the pool's price. */
export interface AmmReceive<Id = string> extends Base<Id> {
  kind: typeof POSITION_EVENT.ammReceive;
  token: Id;
  shares: number;
  cost: number;
}
/**
 * Wallet-to-wallet transfer, as two events: the sender's publishes the basis it removed in `slot`, the receiver's reads
 * it there (docs/design.md 3: basis leaves one position and arrives at the other as the same integer).
 */
export interface TransferOut<Id = string> extends Base<Id> {
  kind: typeof POSITION_EVENT.transferOut;
  token: Id;
  amount: number;
  slot: number;
}
export interface TransferIn<Id = string> extends Base<Id> {
  kind: typeof POSITION_EVENT.transferIn;
  token: Id;
  amount: number;
  slot: number;
}
/** Neg-risk conversion of `amount` of each NO token into each YES token of the other questions. */
export interface Conversion<Id = string> extends Base<Id> {
  kind: typeof POSITION_EVENT.conversion;
  noTokens: Id[];
  yesTokens: Id[];
  noMarkets: Id[];
  yesMarkets: Id[];
  amount: number;
  feeBips: number;
}

/**
 * A Protocol V2 structuring move, migration or compress (docs/design.md 10): `burnAmounts[i]` of each burned token
 * leave the wallet, `mintAmounts[j]` of each minted token arrive, and the basis of what is burned is carried to what is
 * minted in proportion to amounts. Neither a buy nor a sell. `cash` is what a compress pays out (0 otherwise): it
 * takes its share of the basis and realizes the difference. `approx` marks basisApprox on every leg (not for wrap,
 * unwrap, migration and compress, which carry basis exactly); `migrated`, the minted legs came from the CTF.
 */
export interface Restructure<Id = string> extends Base<Id> {
  kind: typeof POSITION_EVENT.restructure;
  burnTokens: Id[];
  burnMarkets: Id[];
  burnAmounts: number[];
  mintTokens: Id[];
  mintMarkets: Id[];
  mintAmounts: number[];
  cash: number;
  approx: boolean;
  migrated: boolean;
}

export type PositionEvent<Id = string> =
  | BookBuy<Id>
  | BookSell<Id>
  | Split<Id>
  | Merge<Id>
  | Redemption<Id>
  | AmmBuy<Id>
  | AmmSell<Id>
  | AmmReceive<Id>
  | TransferOut<Id>
  | TransferIn<Id>
  | Conversion<Id>
  | Restructure<Id>;
