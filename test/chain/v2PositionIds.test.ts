// Protocol V2 structured ids against the vectors of test/fixtures/v2/idVectors.json (the TS SDK's), the combo
// condition id against an independent encoding through viem's ABI encoder, and the migration ids against the
// bit layout of Ids.sol.
import t from 'tap';
import { readFileSync } from 'node:fs';
import { encodeAbiParameters, keccak256 } from 'viem';
import {
  binaryMigrationConditionId,
  canonicalLegs,
  comboConditionId,
  isV2ConditionId,
  negRiskMigrationEventId,
  v2ArityOf,
  v2ConditionFromTopic,
  v2ConditionIndexOf,
  v2ConditionOf,
  v2EventConditionId,
  v2EventFromTopic,
  v2EventOf,
  v2ModuleOf,
  v2OppositeToken,
  v2OutcomeOf,
  v2PositionId,
} from '../../engine/chain/v2PositionIds.js';
import { tokenIdFromDecimal, tokenIdToDecimal } from '../../engine/chain/tokenId.js';

const vectors = JSON.parse(readFileSync(new URL('../fixtures/v2/idVectors.json', import.meta.url), 'utf8'));

/** Ids.sol's encode, by bigint arithmetic: an implementation independent of the string slicing under test. */
function encodeCondition(moduleId: bigint, baseHash: bigint, arity: bigint, index: bigint): string {
  const mask128 = (1n << 128n) - 1n;
  const value = (moduleId << 248n) | ((baseHash & mask128) << 120n) | (arity << 104n) | (index << 8n);
  return '0x' + value.toString(16).padStart(64, '0').slice(0, 62);
}

t.test('the SDK vectors: event fields, conditions of an event, positions', async (t) => {
  const event: string = vectors.event;
  t.equal(v2ModuleOf(event.slice(2)), vectors.eventDecoded.moduleId);
  t.equal(v2ArityOf(event), vectors.eventDecoded.arity);
  t.equal(event.slice(40, 56), vectors.eventDecoded.reservedHex);
  t.equal(parseInt(event.slice(56, 60), 16), vectors.eventDecoded.resolutionChain);
  for (const { index, conditionId } of vectors.conditions) {
    t.equal(v2EventConditionId(event, index), conditionId, `condition ${index}`);
    t.equal(v2EventOf(conditionId), event);
    t.equal(v2ConditionIndexOf(conditionId), index);
    for (const outcome of [0, 1]) {
      const token = v2PositionId(conditionId, outcome);
      t.equal(tokenIdToDecimal(token), BigInt(conditionId + '0' + outcome).toString(), 'decimal position id');
      t.equal(v2ConditionOf(token), conditionId);
      t.equal(v2OutcomeOf(token), outcome);
      t.equal(v2OppositeToken(token), v2PositionId(conditionId, 1 - outcome));
    }
  }
  t.equal(v2ModuleOf(vectors.binary.slice(2)), 1);
  t.equal(v2ModuleOf(vectors.combo.slice(2)), 3);
  t.ok(isV2ConditionId(vectors.binary));
  t.notOk(isV2ConditionId(vectors.binary + '00'), '64 hex is a CTF id, not a V2 condition');
  t.equal(v2ConditionFromTopic(vectors.combo.slice(2) + '00'), vectors.combo);
  t.equal(v2EventFromTopic(event.slice(2) + '000000'), event);
});

t.test('combo condition id: 0x03, low 128 bits of keccak(abi.encode(3, abi.encode(legs))), zeros', async (t) => {
  const legA = v2PositionId(vectors.binary, 0);
  const legB = v2PositionId(v2EventConditionId('0x02' + 'ab'.repeat(16) + '0003' + '0'.repeat(20), 1), 1);
  const legs = canonicalLegs([legB, legA]);
  t.same(legs, [legA, legB], 'ascending as uint256');
  for (const set of [[legA], legs]) {
    const data = encodeAbiParameters([{ type: 'uint256[]' }], [set.map((leg) => BigInt('0x' + leg))]);
    const baseHash = keccak256(encodeAbiParameters([{ type: 'uint256' }, { type: 'bytes' }], [3n, data]));
    const expected = encodeCondition(3n, BigInt(baseHash), 0n, 0n);
    t.equal(comboConditionId(set), expected, `${set.length} leg(s)`);
    t.equal(v2ModuleOf(comboConditionId(set).slice(2)), 3);
  }
  t.throws(() => comboConditionId([legB, legA]), 'legs out of order are refused');
  t.throws(() => comboConditionId([]), 'no legs');
});

t.test('migration conditions: binary from the legacy condition id, neg-risk from the legacy market', async (t) => {
  const legacy = '0x' + 'c0ffee'.padEnd(64, '5');
  t.equal(binaryMigrationConditionId(legacy), encodeCondition(1n, BigInt(legacy), 0n, 0n));
  const market = '0x' + '77'.repeat(31) + '00';
  const event = negRiskMigrationEventId(market, 5);
  t.equal(v2ArityOf(event), 5);
  for (const index of [0, 4])
    t.equal(v2EventConditionId(event, index), encodeCondition(2n, BigInt(market), 5n, BigInt(index)));
  t.equal(tokenIdFromDecimal(tokenIdToDecimal(v2PositionId(event + '0002', 1))), v2PositionId(event + '0002', 1));
});
