// The AMM era: Gnosis fixed-product market makers (docs/venue.md 1.8, 2.5) created by the FPMM factory. Pool maths
// follow FixedProductMarketMaker.sol (calcBuyAmount/calcSellAmount with ceiling division, fee = amount x fee /
// 10^18 on buys and amount x fee / (10^18 - fee) on sells, funding by pool weight). Each call also emits the
// CTF plumbing the pool causes: its own split (buy, funding) or merge (sell) with stakeholder = pool, and
// ERC-1155 moves with operator = pool; the pool's LP-token Transfer is written as a log tally does not use.
import { KIND } from '../../engine/chain/chainEvent.js';
import { ZERO_ADDRESS } from '../../engine/chain/venueAddresses.js';
import type { DemoContext } from './demoContext.js';
import { logCtfMerge, logCtfSplit, logTransferBatch, logTransferSingle } from './demoLogs.js';
import { addBalance, type DemoMarket, type DemoPool } from './demoMarkets.js';

const ONE = 10n ** 18n;
const ERC20_TRANSFER_TOPIC = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef';

const ceilDiv = (a: bigint, b: bigint) => (a + b - 1n) / b;
const word = (value: number) => '0x' + value.toString(16).padStart(64, '0');
const addressTopic = (address: string) => '0x' + '0'.repeat(24) + address.slice(2);

/** FixedProductMarketMakerCreation from the factory; the pool starts empty. */
export function createPool(
  ctx: DemoContext,
  market: DemoMarket,
  creator: number,
  poolAddress: string,
  feeWad: bigint,
): DemoPool {
  const pool: DemoPool = { address: poolAddress, balances: [0, 0], lpSupply: 0, feePool: 0, lp: new Map(), feeWad };
  market.pool = pool;
  ctx.capture.beginTx();
  ctx.capture.log(
    {
      kind: KIND.fpmmCreation,
      logIndex: 0,
      txIndex: 0,
      tx: '',
      creator: ctx.wallets[creator]!.address,
      pool: poolAddress,
      conditionalTokens: ctx.addresses.ctf,
      collateral: ctx.addresses.usdc,
      conditionIds: [market.conditionId],
      fee: feeWad.toString(16).padStart(64, '0'),
    },
    ctx.addresses.fpmmFactory,
  );
  return pool;
}

/** addFunding(amount, hint): the first funding may skew the pool with a distribution hint [h0, h1]. */
export function addFunding(
  ctx: DemoContext,
  market: DemoMarket,
  funder: number,
  amount: number,
  hint: [number, number] | null,
): void {
  const pool = market.pool!;
  const address = ctx.wallets[funder]!.address;
  const kept: [number, number] = [amount, amount];
  let minted: number;
  if (pool.lpSupply === 0) {
    if (hint !== null) {
      const maxHint = Math.max(hint[0], hint[1]);
      for (let i = 0; i < 2; i++) kept[i] = Number((BigInt(amount) * BigInt(hint[i]!)) / BigInt(maxHint));
    }
    minted = amount;
  } else {
    const weight = Math.max(pool.balances[0], pool.balances[1]);
    for (let i = 0; i < 2; i++) kept[i] = Number((BigInt(amount) * BigInt(pool.balances[i]!)) / BigInt(weight));
    minted = Number((BigInt(amount) * BigInt(pool.lpSupply)) / BigInt(weight));
  }
  const sendBack: [number, number] = [amount - kept[0], amount - kept[1]];
  ctx.capture.beginTx();
  ctx.capture.skipLogs(3); // USDC in, approval, USDC to the CTF
  logTransferBatch(ctx, pool.address, ZERO_ADDRESS, pool.address, market.tokens, [amount, amount]);
  logCtfSplit(ctx, pool.address, ctx.addresses.usdc, market.conditionId, amount);
  ctx.capture.other(
    pool.address,
    [ERC20_TRANSFER_TOPIC, addressTopic(ZERO_ADDRESS), addressTopic(address)],
    word(minted),
  );
  logTransferBatch(ctx, pool.address, pool.address, address, market.tokens, sendBack);
  ctx.capture.log(
    {
      kind: KIND.fpmmFundingAdded,
      logIndex: 0,
      txIndex: 0,
      tx: '',
      pool: pool.address,
      funder: address,
      amountsAdded: kept,
      sharesMinted: minted,
    },
    pool.address,
  );
  pool.balances[0] += kept[0];
  pool.balances[1] += kept[1];
  pool.lpSupply += minted;
  pool.lp.set(funder, (pool.lp.get(funder) ?? 0) + minted);
  for (let i = 0; i < 2; i++) if (sendBack[i]! > 0) addBalance(market, funder, i, sendBack[i]!);
}

/** removeFunding(shares): the funder gets its share of both pool balances and of the collected fees. */
export function removeFunding(ctx: DemoContext, market: DemoMarket, funder: number, shares: number): void {
  const pool = market.pool!;
  const address = ctx.wallets[funder]!.address;
  const sent: [number, number] = [0, 0];
  for (let i = 0; i < 2; i++) sent[i] = Number((BigInt(pool.balances[i]!) * BigInt(shares)) / BigInt(pool.lpSupply));
  const fees = Number((BigInt(pool.feePool) * BigInt(shares)) / BigInt(pool.lpSupply));
  ctx.capture.beginTx();
  if (fees > 0) ctx.capture.skipLogs(1); // fee withdrawal in USDC
  ctx.capture.other(
    pool.address,
    [ERC20_TRANSFER_TOPIC, addressTopic(address), addressTopic(ZERO_ADDRESS)],
    word(shares),
  );
  logTransferBatch(ctx, pool.address, pool.address, address, market.tokens, sent);
  ctx.capture.log(
    {
      kind: KIND.fpmmFundingRemoved,
      logIndex: 0,
      txIndex: 0,
      tx: '',
      pool: pool.address,
      funder: address,
      amountsRemoved: sent,
      collateralRemovedFromFeePool: fees,
      sharesBurnt: shares,
    },
    pool.address,
  );
  pool.balances[0] -= sent[0];
  pool.balances[1] -= sent[1];
  pool.lpSupply -= shares;
  pool.feePool -= fees;
  const left = (pool.lp.get(funder) ?? 0) - shares;
  if (left > 0) pool.lp.set(funder, left);
  else pool.lp.delete(funder);
  for (let i = 0; i < 2; i++) if (sent[i]! > 0) addBalance(market, funder, i, sent[i]!);
}

/** buy(investment, outcome): false (nothing emitted) if the pool cannot take it. */
export function ammBuy(
  ctx: DemoContext,
  market: DemoMarket,
  buyer: number,
  outcome: number,
  investment: number,
): boolean {
  const pool = market.pool!;
  const fee = Number((BigInt(investment) * pool.feeWad) / ONE);
  const net = investment - fee;
  const own = BigInt(pool.balances[outcome]!);
  const other = BigInt(pool.balances[1 - outcome]!);
  if (net <= 0 || own === 0n || other === 0n) return false;
  const ending = ceilDiv(own * ONE * other, other + BigInt(net));
  const bought = Number(own + BigInt(net) - ceilDiv(ending, ONE));
  if (bought <= 0) return false;
  const address = ctx.wallets[buyer]!.address;
  ctx.capture.beginTx();
  ctx.capture.skipLogs(3); // USDC in, approval, USDC to the CTF
  logTransferBatch(ctx, pool.address, ZERO_ADDRESS, pool.address, market.tokens, [net, net]);
  logCtfSplit(ctx, pool.address, ctx.addresses.usdc, market.conditionId, net);
  logTransferSingle(ctx, pool.address, pool.address, address, market.tokens[outcome]!, bought);
  ctx.capture.log(
    {
      kind: KIND.fpmmBuy,
      logIndex: 0,
      txIndex: 0,
      tx: '',
      pool: pool.address,
      buyer: address,
      investmentAmount: investment,
      feeAmount: fee,
      outcomeIndex: outcome,
      outcomeTokensBought: bought,
    },
    pool.address,
  );
  pool.balances[outcome] = pool.balances[outcome]! + net - bought;
  pool.balances[1 - outcome] = pool.balances[1 - outcome]! + net;
  pool.feePool += fee;
  addBalance(market, buyer, outcome, bought);
  ctx.counters.ammTrades++;
  return true;
}

/** sell(returnAmount, outcome): false if the seller does not hold enough or the pool cannot pay it. */
export function ammSell(
  ctx: DemoContext,
  market: DemoMarket,
  seller: number,
  outcome: number,
  returnAmount: number,
  held: number,
): boolean {
  const pool = market.pool!;
  const feeWad = pool.feeWad;
  const plusFeesForCalc = (BigInt(returnAmount) * ONE) / (ONE - feeWad);
  const own = BigInt(pool.balances[outcome]!);
  const other = BigInt(pool.balances[1 - outcome]!);
  if (returnAmount <= 0 || plusFeesForCalc >= other) return false;
  const ending = ceilDiv(own * ONE * other, other - plusFeesForCalc);
  const sold = Number(plusFeesForCalc + ceilDiv(ending, ONE) - own);
  if (sold <= 0 || sold > held) return false;
  const fee = Number((BigInt(returnAmount) * feeWad) / (ONE - feeWad));
  const merged = returnAmount + fee;
  if (merged > pool.balances[1 - outcome]! || merged > pool.balances[outcome]! + sold) return false;
  const address = ctx.wallets[seller]!.address;
  ctx.capture.beginTx();
  logTransferSingle(ctx, pool.address, address, pool.address, market.tokens[outcome]!, sold);
  logTransferBatch(ctx, pool.address, pool.address, ZERO_ADDRESS, market.tokens, [merged, merged]);
  ctx.capture.skipLogs(1); // USDC from the CTF
  logCtfMerge(ctx, pool.address, ctx.addresses.usdc, market.conditionId, merged);
  ctx.capture.skipLogs(1); // USDC to the seller
  ctx.capture.log(
    {
      kind: KIND.fpmmSell,
      logIndex: 0,
      txIndex: 0,
      tx: '',
      pool: pool.address,
      seller: address,
      returnAmount,
      feeAmount: fee,
      outcomeIndex: outcome,
      outcomeTokensSold: sold,
    },
    pool.address,
  );
  pool.balances[outcome] = pool.balances[outcome]! + sold - merged;
  pool.balances[1 - outcome] = pool.balances[1 - outcome]! - merged;
  pool.feePool += fee;
  addBalance(market, seller, outcome, -sold);
  ctx.counters.ammTrades++;
  return true;
}
