// A Protocol V2 round's question id, as the ChainlinkReporterModule computes it (polymarket-v2-external
// ChainlinkReporterModule.computeQuestionId): keccak256(abi.encode("CHAINLINK_CANDLE", assetPair, duration,
// startTimestamp)), the identifier a bytes32 string and assetPair keccak256("<ASSET>/USD") (the module's example).
import { encodeAbiParameters, keccak256, stringToHex } from 'viem';

const TYPES = [{ type: 'bytes32' }, { type: 'bytes32' }, { type: 'uint256' }, { type: 'uint256' }] as const;

/** `asset` upper case (BTC, ETH, SOL, XRP); times in Unix seconds. */
export function roundQuestionId(round: { asset: string; startTs: number; endTs: number }): string {
  const identifier = stringToHex('CHAINLINK_CANDLE', { size: 32 });
  const assetPair = keccak256(stringToHex(`${round.asset}/USD`));
  const duration = BigInt(round.endTs - round.startTs);
  return keccak256(encodeAbiParameters(TYPES, [identifier, assetPair, duration, BigInt(round.startTs)]));
}
