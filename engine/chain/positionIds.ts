// Outcome token id math of the Conditional Tokens Framework (docs/venue.md §3, §4): conditionId, collectionId
// (alt_bn128 point compression), positionId (the ERC-1155 token id) and the neg-risk question/condition ids. Pure: no
// I/O, no clock. Inputs may be any letter case; outputs are lowercase. Token ids come back as 64 hex digits without 0x
// (tally's internal form); conditionId, collectionId and questionId as '0x' + 64 hex. Every function reproduces the 818
// vectors of test/fixtures/realdata/token_id_vectors.json (test/chain/positionIds.test.ts).

import { keccak256 } from 'viem';

/** alt_bn128 field prime (docs/venue.md §3.2); P ≡ 3 mod 4 and P < 2^254. */
const P = 21888242871839275222246405745257275088696311157297823662689037894645226208583n;
const CURVE_B = 3n;
const BIT_254 = 1n << 254n;

// Scratch buffers for the packed keccak inputs. Safe to share because every function here is synchronous and
// copies what it needs out of them before returning.
const conditionInput = new Uint8Array(84); // oracle(20) ‖ questionId(32) ‖ uint256(outcomeSlotCount)(32)
const collectionInput = new Uint8Array(64); // conditionId(32) ‖ uint256(indexSet)(32)
const positionInput = new Uint8Array(52); // collateral(20) ‖ collectionId(32)

// Hex digit value by char code, -1 for anything else; lets parsing validate and decode in one pass.
const HEX_VALUE = new Int8Array(128).fill(-1);
for (let i = 0; i < 10; i++) HEX_VALUE[48 + i] = i;
for (let i = 0; i < 6; i++) {
  HEX_VALUE[65 + i] = 10 + i;
  HEX_VALUE[97 + i] = 10 + i;
}
const BYTES32_HEX = /^(0x)?[0-9a-f]{64}$/i;
const BYTE_HEX: string[] = [];
for (let i = 0; i < 256; i++) BYTE_HEX.push(i.toString(16).padStart(2, '0'));

/** Writes `byteLength` bytes of a hex string (optional 0x) into `target` at `offset`; throws on bad input. */
function writeHex(target: Uint8Array, offset: number, hex: string, byteLength: number, what: string): void {
  const start = hex.startsWith('0x') || hex.startsWith('0X') ? 2 : 0;
  if (hex.length - start !== byteLength * 2) {
    throw new RangeError(`${what} must be ${byteLength} bytes of hex (${byteLength * 2} digits), got "${hex}"`);
  }
  for (let i = 0; i < byteLength; i++) {
    const hi = HEX_VALUE[hex.charCodeAt(start + 2 * i)] ?? -1;
    const lo = HEX_VALUE[hex.charCodeAt(start + 2 * i + 1)] ?? -1;
    if (hi < 0 || lo < 0) throw new RangeError(`${what} is not hex: "${hex}"`);
    target[offset + i] = (hi << 4) | lo;
  }
}

/** Writes a non-negative safe integer as a big-endian uint256 word. */
function writeUint256(target: Uint8Array, offset: number, value: number): void {
  target.fill(0, offset, offset + 32);
  let rest = value;
  for (let i = offset + 31; rest > 0; i--) {
    target[i] = rest % 256;
    rest = Math.floor(rest / 256);
  }
}

function bytesToHex(bytes: Uint8Array): string {
  let out = '';
  for (let i = 0; i < bytes.length; i++) out += BYTE_HEX[bytes[i]!];
  return out;
}

/**
 * Legendre symbol (a/P) by the binary Jacobi algorithm. About six times faster than the Euler criterion or
 * the contract's exponentiation yy^((P+1)/4) with BigInt, and it is the only thing collectionId needs.
 * Returns 1 (residue), -1 (non-residue) or 0 (a ≡ 0).
 */
function legendre(value: bigint): number {
  let a = value % P;
  let n = P;
  let sign = 1;
  while (a !== 0n) {
    // Strip factors of two; (2/n) = -1 exactly when n ≡ 3 or 5 (mod 8).
    let low = Number(a & 0xffffffffn);
    while (low === 0) {
      a >>= 32n; // 32 zero bits: an even count, the sign is unchanged
      low = Number(a & 0xffffffffn);
    }
    const zeros = 31 - Math.clz32(low & -low);
    if (zeros !== 0) {
      a >>= BigInt(zeros);
      const n8 = Number(n & 7n);
      if ((zeros & 1) === 1 && (n8 === 3 || n8 === 5)) sign = -sign;
    }
    // Quadratic reciprocity: swapping flips the sign when both are ≡ 3 (mod 4).
    if (Number(a & 3n) === 3 && Number(n & 3n) === 3) sign = -sign;
    const swap = a;
    a = n % swap;
    n = swap;
  }
  return n === 1n ? sign : 0;
}

/**
 * collectionId of (parent 0, conditionId in collectionInput[0..32), indexSet) as 64 hex digits.
 * The contract (CTHelpers.getCollectionId) also computes y = sqrt(x³ + 3) and flips it to the parity of the
 * hash's top bit, then sets bit 254 when y is odd. With parent 0 that bit is therefore the top bit itself,
 * so y never reaches the output: only "is x³ + 3 a square" matters, which the Legendre symbol answers.
 * A zero x³ + 3 has the root 0, which the contract accepts, hence `!== -1`.
 */
function collectionHex(indexSet: number): string {
  writeUint256(collectionInput, 32, indexSet);
  const hash = keccak256(collectionInput, 'bytes');
  const h = BigInt('0x' + bytesToHex(hash));
  const odd = hash[0]! >= 0x80;
  let x = h % P; // the first candidate is (h + 1) mod P, never h itself (docs/venue.md §3.2 step 3)
  do {
    x += 1n;
    if (x === P) x = 0n;
  } while (legendre((((x * x) % P) * x + CURVE_B) % P) === -1);
  return (odd ? x | BIT_254 : x).toString(16).padStart(64, '0');
}

function checkIndexSet(indexSet: number): void {
  if (!Number.isSafeInteger(indexSet) || indexSet < 1) {
    throw new RangeError(`indexSet must be a positive safe integer, got ${indexSet}`);
  }
}

/** positionId of the collateral already in positionInput[0..20) and a collectionId (64 hex, no 0x). */
function positionHex(collectionId: string): string {
  writeHex(positionInput, 20, collectionId, 32, 'collectionId');
  return bytesToHex(keccak256(positionInput, 'bytes'));
}

/** keccak256(oracle ‖ questionId ‖ uint256(outcomeSlotCount)) as '0x' + 64 hex (docs/venue.md §3.1). */
export function conditionIdOf(oracle: string, questionId: string, outcomeSlotCount: number): string {
  // The CTF refuses to prepare conditions outside 2..256 slots, so no real conditionId has another count.
  if (!Number.isInteger(outcomeSlotCount) || outcomeSlotCount < 2 || outcomeSlotCount > 256) {
    throw new RangeError(`outcomeSlotCount must be an integer in 2..256, got ${outcomeSlotCount}`);
  }
  writeHex(conditionInput, 0, oracle, 20, 'oracle');
  writeHex(conditionInput, 20, questionId, 32, 'questionId');
  writeUint256(conditionInput, 52, outcomeSlotCount);
  return '0x' + bytesToHex(keccak256(conditionInput, 'bytes'));
}

/** collectionId for a top-level position (parent collection 0, as for every Polymarket market), '0x' + 64 hex. */
export function collectionIdOf(conditionId: string, indexSet: number): string {
  checkIndexSet(indexSet);
  writeHex(collectionInput, 0, conditionId, 32, 'conditionId');
  return '0x' + collectionHex(indexSet);
}

/** ERC-1155 position id keccak256(collateral ‖ collectionId), 64 lowercase hex without 0x (docs/venue.md §3.3). */
export function positionIdOf(collateral: string, collectionId: string): string {
  writeHex(positionInput, 0, collateral, 20, 'collateral');
  return positionHex(collectionId);
}

/**
 * The binary market's two token ids: [indexSet 1 (outcome 0, YES/first), indexSet 2 (outcome 1, NO/second)].
 * Collateral is USDC.e for standard markets and WrappedCollateral for neg-risk ones (docs/venue.md §3.4).
 */
export function outcomeTokenIds(conditionId: string, collateral: string): [string, string] {
  writeHex(collectionInput, 0, conditionId, 32, 'conditionId');
  writeHex(positionInput, 0, collateral, 20, 'collateral');
  const first = positionHex(collectionHex(1));
  const second = positionHex(collectionHex(2));
  return [first, second];
}

/** Neg-risk questionId: the marketId with its last byte replaced by the question index (docs/venue.md §4). */
export function negRiskQuestionId(marketId: string, index: number): string {
  if (!Number.isInteger(index) || index < 0 || index > 255) {
    throw new RangeError(`neg-risk question index must be an integer in 0..255, got ${index}`);
  }
  if (!BYTES32_HEX.test(marketId)) throw new RangeError(`marketId must be 32 bytes of hex, got "${marketId}"`);
  const start = marketId.length - 64;
  return '0x' + marketId.slice(start, start + 62).toLowerCase() + BYTE_HEX[index]!;
}

/** Neg-risk conditionId: the CTF rule with the NegRiskAdapter as oracle and two outcome slots. */
export function negRiskConditionId(adapter: string, questionId: string): string {
  return conditionIdOf(adapter, questionId, 2);
}
