// Token id math against real venue data: every vector of test/fixtures/realdata/token_id_vectors.json (copied from the
// venue data), the docs/venue.md §3.5 vectors, the engine issue's vector, a literal port of the contract's sqrt-based
// getCollectionId, and the decimal <-> hex conversion. Also prints the outcomeTokenIds throughput (no timing
// assertion).

import t from 'tap';
import { readFileSync } from 'node:fs';
import { keccak256, toHex } from 'viem';
import {
  collectionIdOf,
  conditionIdOf,
  negRiskConditionId,
  negRiskQuestionId,
  outcomeTokenIds,
  positionIdOf,
} from '../../engine/chain/positionIds.js';
import { tokenIdFromDecimal, tokenIdToDecimal } from '../../engine/chain/tokenId.js';

interface MarketVector {
  conditionId: string;
  collateral: string;
  collateralAddress: string;
  negRisk: boolean;
  tokenIdIndexSet1: string;
  tokenIdIndexSet2: string;
  label: string;
}
interface TokenVector {
  conditionId: string;
  tokenId: string;
  collateral: string;
  indexSet: number;
}
interface QuestionVector {
  questionId: string;
  oracle: string;
  outcomeSlotCount: number;
  conditionId: string;
}
interface VectorFile {
  constants: Record<string, string>;
  markets: MarketVector[];
  tokens: TokenVector[];
  questionIdToConditionId: QuestionVector[];
}

const vectors = JSON.parse(
  readFileSync(new URL('../fixtures/realdata/token_id_vectors.json', import.meta.url), 'utf8'),
) as VectorFile;

const USDC = '0x2791Bca1f2de4661ED88A30C99A7a9449Aa84174';
const WCOL = '0x3A3BD7bb9528E159577F7C2e685CC81A765002E2';
const NEG_RISK_ADAPTER = '0xd91E80cF2E7be2e162c6513ceD06f1dD0dA35296';

/** Both token ids of a market as decimal strings, the form every published vector uses. */
function decimalPair(conditionId: string, collateral: string): [string, string] {
  const [first, second] = outcomeTokenIds(conditionId, collateral);
  return [tokenIdToDecimal(first), tokenIdToDecimal(second)];
}

/** Deterministic 32-byte ids for the property test and the benchmark: keccak256 of a counter. */
function derivedConditionId(i: number): string {
  return keccak256(toHex(i, { size: 32 }));
}

// A literal port of CTHelpers.getCollectionId (parent 0): y = yy^((P+1)/4), retry until y² = yy, flip y to
// the hash's top-bit parity, set bit 254 when y is odd. The module under test skips y; this checks that it may.
const P = 21888242871839275222246405745257275088696311157297823662689037894645226208583n;
function modPow(base: bigint, exponent: bigint): bigint {
  let result = 1n;
  let b = base % P;
  for (let e = exponent; e > 0n; e >>= 1n) {
    if ((e & 1n) === 1n) result = (result * b) % P;
    b = (b * b) % P;
  }
  return result;
}
function referenceCollectionId(conditionId: string, indexSet: number): string {
  let x = BigInt(keccak256(`${conditionId as `0x${string}`}${toHex(indexSet, { size: 32 }).slice(2)}`));
  const odd = x >> 255n !== 0n;
  let y: bigint;
  let yy: bigint;
  do {
    x = (x + 1n) % P;
    yy = (((x * x) % P) * x + 3n) % P;
    y = modPow(yy, (P + 1n) / 4n);
  } while ((y * y) % P !== yy);
  if (odd !== ((y & 1n) === 1n)) y = P - y;
  return '0x' + ((y & 1n) === 1n ? x ^ (1n << 254n) : x).toString(16).padStart(64, '0');
}

t.test('token_id_vectors.json', async (t) => {
  t.test('default: all 818 vectors', async (t) => {
    t.equal(vectors.markets.length + vectors.tokens.length + vectors.questionIdToConditionId.length, 818);
    let failures = 0;
    for (const market of vectors.markets) {
      t.equal(vectors.constants[market.collateral], market.collateralAddress, `collateral name ${market.collateral}`);
      const actual = decimalPair(market.conditionId, market.collateralAddress);
      if (actual[0] !== market.tokenIdIndexSet1 || actual[1] !== market.tokenIdIndexSet2) {
        failures++;
        t.same(actual, [market.tokenIdIndexSet1, market.tokenIdIndexSet2], `market ${market.label}`);
      }
    }
    for (const token of vectors.tokens) {
      const collateral = vectors.constants[token.collateral];
      if (collateral === undefined) throw new Error(`unknown collateral name ${token.collateral}`);
      const actual = tokenIdToDecimal(positionIdOf(collateral, collectionIdOf(token.conditionId, token.indexSet)));
      if (actual !== token.tokenId) {
        failures++;
        t.equal(actual, token.tokenId, `token ${token.conditionId} indexSet ${token.indexSet}`);
      }
    }
    for (const question of vectors.questionIdToConditionId) {
      const actual = conditionIdOf(question.oracle, question.questionId, question.outcomeSlotCount);
      if (actual !== question.conditionId) {
        failures++;
        t.equal(actual, question.conditionId, `question ${question.questionId}`);
      }
    }
    t.equal(failures, 0, '818 vectors, none differ');
  });

  t.test('behavior: neg-risk question vectors through negRiskConditionId', async (t) => {
    const negRisk = vectors.questionIdToConditionId.filter((q) => q.oracle === NEG_RISK_ADAPTER.toLowerCase());
    t.equal(negRisk.length, 40);
    for (const question of negRisk) {
      t.equal(negRiskConditionId(question.oracle, question.questionId), question.conditionId);
    }
  });
});

t.test('collectionIdOf', async (t) => {
  t.test('default', async (t) => {
    const condition = '0xdb4ab1dbbedd6aeec17aa6e3f66262cff0e3b04742dd3acdf99652575e5422f8';
    t.equal(collectionIdOf(condition, 1), '0x12adf3dfeaddeef8f31fa86654bf367c5c7b1e854dff407d7c87ff76af4ad16d');
    t.equal(collectionIdOf(condition, 2), '0x2f5ebcc5972889a57d587b7088d543bbf464fbdd2b2c4cb7c276ca3d4d70415b');
  });

  t.test('behavior: odd hash sets bit 254', async (t) => {
    const condition = '0xda558eddf6eb57760bd5371fb313167f871d823a16e9d66fccb292baf2a117c0';
    t.equal(collectionIdOf(condition, 1), '0x45ca66c3edbdbf0fbd03366cf395d3663ee3b34c4db07964bb60e3c7ca7e20e2');
    t.equal(collectionIdOf(condition, 2), '0x416929e8901456139abeec231eba635f911a240961f78919665280c69288ee0d');
  });

  t.test('behavior: equals the contract sqrt algorithm on 200 derived conditions', async (t) => {
    let mismatches = 0;
    let oddCount = 0;
    for (let i = 0; i < 200; i++) {
      const condition = derivedConditionId(i);
      const indexSet = 1 + (i % 3);
      const expected = referenceCollectionId(condition, indexSet);
      if (BigInt(expected) >> 254n === 1n) oddCount++;
      if (collectionIdOf(condition, indexSet) !== expected) mismatches++;
    }
    t.equal(mismatches, 0);
    t.ok(oddCount > 50 && oddCount < 150, `both parities exercised (${oddCount} odd)`);
  });

  t.test('behavior: any letter case, with or without 0x', async (t) => {
    const condition = '0xDA558EDDF6EB57760BD5371FB313167F871D823A16E9D66FCCB292BAF2A117C0';
    t.equal(collectionIdOf(condition, 2), '0x416929e8901456139abeec231eba635f911a240961f78919665280c69288ee0d');
    t.equal(collectionIdOf(condition.slice(2), 2), collectionIdOf(condition, 2));
  });

  t.test('error: malformed conditionId or indexSet', async (t) => {
    t.throws(() => collectionIdOf('0x1234', 1), RangeError);
    t.throws(() => collectionIdOf('0x' + 'g'.repeat(64), 1), /conditionId is not hex/);
    t.throws(() => collectionIdOf('0x' + '0'.repeat(64), 0), /indexSet must be a positive safe integer/);
    t.throws(() => collectionIdOf('0x' + '0'.repeat(64), 1.5), RangeError);
  });
});

t.test('positionIdOf', async (t) => {
  t.test('default: non-USDC collateral', async (t) => {
    const collateral = '0x7D1DC38E60930664F8cBF495dA6556ca091d2F92';
    const ids = [
      '0x45ca66c3edbdbf0fbd03366cf395d3663ee3b34c4db07964bb60e3c7ca7e20e2',
      '0x416929e8901456139abeec231eba635f911a240961f78919665280c69288ee0d',
    ].map((collectionId) => tokenIdToDecimal(positionIdOf(collateral, collectionId)));
    t.same(ids, [
      '108051088633899060239124498527429950692254744883563327407154880807410490438693',
      '45163082656174410071592939534766820181648934703824597457997612898109272294349',
    ]);
  });

  t.test('behavior: lowercase 64 hex without 0x', async (t) => {
    const id = positionIdOf(WCOL, '0x416929E8901456139ABEEC231EBA635F911A240961F78919665280C69288EE0D');
    t.match(id, /^[0-9a-f]{64}$/);
  });

  t.test('error: malformed collateral or collectionId', async (t) => {
    t.throws(() => positionIdOf('0x1234', '0x' + '0'.repeat(64)), /collateral must be 20 bytes/);
    t.throws(() => positionIdOf(USDC, '0x' + '0'.repeat(63)), /collectionId must be 32 bytes/);
  });
});

t.test('outcomeTokenIds', async (t) => {
  t.test('default: standard market, USDC.e', async (t) => {
    t.same(decimalPair('0xfc690d5069b296bb9278af0cba42c02666e0999e4a4009ed97ea4a885f045457', USDC), [
      '73716170047628147940237270507900673332129573201293655532643868111690843426372',
      '2890213445014127424511466931609154310536269586265875141655148162320150952197',
    ]);
  });

  t.test('behavior: neg-risk market, WrappedCollateral', async (t) => {
    t.same(decimalPair('0xbf5ba08b3a0c4dd741f00759282e38e9bfa9ad59aa623ed13d26a8786c1e5afc', WCOL), [
      '84121562275746951169805992721206824933074826856805500029198362509460400440947',
      '6492254133524731704185750998715576231739345323060925006131340263114065023619',
    ]);
  });

  t.test('behavior: engine issue vector (wcol, mixed-case collateral)', async (t) => {
    t.same(decimalPair('0xdd22472e552920b8438158ea7238bfadfa4f736aa4cee91a6b86c39ead110917', WCOL), [
      '21742633143463906290569050155826241533067272736897614950488156847949938836455',
      '48331043336612883890938759509493159234755048973500640148014422747788308965732',
    ]);
  });

  t.test('behavior: 76-digit token id (btc-updown-15m-1767200400)', async (t) => {
    const pair = decimalPair('0x2e6af11e4b853b05ba7135239b21d77e808889b6ce1e735de856c94c4e5b5fce', USDC);
    t.same(pair, [
      '8851848546962572193739008211889046036776198486765606333032192644001246174440',
      '10181859819235412241349111952383458602722012323104397550162049365057126390549',
    ]);
    t.equal(pair[0].length, 76);
  });

  t.test('behavior: the collateral decides the ids (Southend United, neg-risk)', async (t) => {
    const condition = '0x947e58cba3202dad1263aae4b762f3f3449d51d653ab3d7edf44e8fbbdb842f4';
    t.same(decimalPair(condition, WCOL), [
      '4362565718172399607803233902301070583743211054026619608100805301183001268176',
      '31907764964847850205034294700430149243384031804339164092261663221842325395835',
    ]);
    t.same(decimalPair(condition, USDC), [
      '93882614516024123383287696152421161590213263464015988073729269241939268850902',
      '60455511707033817803466002664904678226651315868199150773229723410268900628471',
    ]);
  });

  t.test('behavior: same ids as collectionIdOf + positionIdOf', async (t) => {
    const condition = derivedConditionId(7);
    t.same(outcomeTokenIds(condition, USDC), [
      positionIdOf(USDC, collectionIdOf(condition, 1)),
      positionIdOf(USDC, collectionIdOf(condition, 2)),
    ]);
  });

  t.test('error: malformed input', async (t) => {
    t.throws(() => outcomeTokenIds('', USDC), /conditionId must be 32 bytes/);
    t.throws(() => outcomeTokenIds(derivedConditionId(1), USDC + '00'), /collateral must be 20 bytes/);
  });

  t.test('behavior: throughput', async (t) => {
    const conditions: string[] = [];
    for (let i = 0; i < 3000; i++) conditions.push(derivedConditionId(i));
    for (let i = 0; i < 300; i++) outcomeTokenIds(conditions[i]!, USDC); // warm up
    const started = performance.now();
    let checksum = 0;
    for (const condition of conditions) checksum ^= outcomeTokenIds(condition, USDC)[0].charCodeAt(0);
    const seconds = (performance.now() - started) / 1000;
    t.comment(`outcomeTokenIds: ${Math.round(conditions.length / seconds)} pairs/s (${conditions.length} pairs)`);
    const referenceStarted = performance.now();
    for (let i = 0; i < 300; i++) {
      referenceCollectionId(conditions[i]!, 1);
      referenceCollectionId(conditions[i]!, 2);
    }
    const referenceSeconds = (performance.now() - referenceStarted) / 1000;
    t.comment(`baseline (contract sqrt, collectionIds only): ${Math.round(300 / referenceSeconds)} pairs/s`);
    t.ok(checksum >= 0);
  });
});

t.test('conditionIdOf', async (t) => {
  t.test('default: neg-risk questionID (Gedion Timothewos)', async (t) => {
    t.equal(
      conditionIdOf(NEG_RISK_ADAPTER, '0x55ab76d092f682bf5cbb7e14f13ee12f8410ce7cc1b7906f23b8fb56c11f6507', 2),
      '0xb6d6f15a1b5d08753653f1867ccd6126badfbe182a75159a330dc7b15336b309',
    );
  });

  t.test('behavior: outcomeSlotCount is hashed as a uint256 word', async (t) => {
    const questionId = derivedConditionId(3);
    const expected = keccak256(
      `0x${NEG_RISK_ADAPTER.slice(2)}${questionId.slice(2)}${toHex(256, { size: 32 }).slice(2)}`,
    );
    t.equal(conditionIdOf(NEG_RISK_ADAPTER, questionId, 256), expected);
  });

  t.test('error: outcomeSlotCount outside 2..256 or malformed ids', async (t) => {
    const questionId = derivedConditionId(3);
    t.throws(() => conditionIdOf(NEG_RISK_ADAPTER, questionId, 1), /outcomeSlotCount must be an integer in 2\.\.256/);
    t.throws(() => conditionIdOf(NEG_RISK_ADAPTER, questionId, 257), RangeError);
    t.throws(() => conditionIdOf('0xd91e', questionId, 2), /oracle must be 20 bytes/);
    t.throws(() => conditionIdOf(NEG_RISK_ADAPTER, '0x12', 2), /questionId must be 32 bytes/);
  });
});

t.test('negRiskQuestionId', async (t) => {
  // docs/venue.md §3.5: (marketId, questionIndex) -> questionId -> conditionId -> YES/NO ids with wcol.
  const cases = [
    {
      marketId: '0xcc4727a6394620b9c8ae82db3db50a34d5ca9828675547bcc4cddf5e86b63000',
      index: 7,
      conditionId: '0x332a94e571f787be90c3db5bd66e00c471a556371786b4622912c90edb46c044',
      ids: [
        '96833685517457790753237027711749956491556223430098771101130535462280443103710',
        '112683192116716745370273337699109698649408967993699289993927321945615517688893',
      ],
    },
    {
      marketId: '0x904aa321a48f737e2223e7b3007bf51d68b6a0d66bdda0c1e4bc581f55d62800',
      index: 4,
      conditionId: '0x13decdc825910e52d8d73e800d15cc03e68bb940b426bc241d9d987d1cd960d2',
      ids: [
        '11031149734538275426690039809123992018327740438980973428241361937177748285493',
        '92849115097658926029726616555072992123532598747617388960074918380114146610948',
      ],
    },
    {
      marketId: '0x904aa321a48f737e2223e7b3007bf51d68b6a0d66bdda0c1e4bc581f55d62800',
      index: 3,
      conditionId: '0x0c916dfc42ac1419f66f48bbc982e0f14b853165c3b5bd19cca8de2306403486',
      ids: [
        '92934986068759649975171712359405804888500621431140776758674716227798619042594',
        '83272680118121060051327450493118657102857345150945269348505485036103238138715',
      ],
    },
    {
      marketId: '0x5e596465dca57c10c8b175f901974e2de2877498410b0210d0a21b57e14da000',
      index: 4,
      conditionId: '0x2cf06bc2611641b8d3bd72a00c368e243b0495f144035a3db03b888dda89f74f',
      ids: [
        '30637845681714148498359907433169105263223689440526909041094893305583115580796',
        '111796127100720291855951404495290728144208289103084969375425640210971192620108',
      ],
    },
  ];

  t.test('default', async (t) => {
    t.equal(
      negRiskQuestionId('0xcc4727a6394620b9c8ae82db3db50a34d5ca9828675547bcc4cddf5e86b63000', 7),
      '0xcc4727a6394620b9c8ae82db3db50a34d5ca9828675547bcc4cddf5e86b63007',
    );
  });

  t.test('behavior: marketId and index to token ids (docs/venue.md 3.5)', async (t) => {
    for (const c of cases) {
      const conditionId = negRiskConditionId(NEG_RISK_ADAPTER, negRiskQuestionId(c.marketId, c.index));
      t.equal(conditionId, c.conditionId, `${c.marketId} q ${c.index}`);
      t.same(decimalPair(conditionId, WCOL), c.ids, `${c.marketId} q ${c.index} ids`);
    }
  });

  t.test('behavior: index 0 is the marketId itself; uppercase input, lowercase output', async (t) => {
    const marketId = '0x55AB76D092F682BF5CBB7E14F13EE12F8410CE7CC1B7906F23B8FB56C11F6500';
    t.equal(negRiskQuestionId(marketId, 0), marketId.toLowerCase());
    t.equal(negRiskQuestionId(marketId, 255), marketId.toLowerCase().slice(0, 64) + 'ff');
  });

  t.test('error: index outside 0..255 or malformed marketId', async (t) => {
    const marketId = '0x55ab76d092f682bf5cbb7e14f13ee12f8410ce7cc1b7906f23b8fb56c11f6500';
    t.throws(() => negRiskQuestionId(marketId, 256), /index must be an integer in 0\.\.255/);
    t.throws(() => negRiskQuestionId(marketId, -1), RangeError);
    t.throws(() => negRiskQuestionId(marketId.slice(0, 40), 1), /marketId must be 32 bytes/);
  });
});

t.test('tokenIdToDecimal / tokenIdFromDecimal', async (t) => {
  t.test('default: round trip of a 76-digit id', async (t) => {
    const decimal = '8851848546962572193739008211889046036776198486765606333032192644001246174440';
    const hex = tokenIdFromDecimal(decimal);
    t.equal(hex, '1391f7fec0e37777c1836f4d8b8f0b856ce8e73e21a4906111ac990037035ce8');
    t.equal(tokenIdToDecimal(hex), decimal);
    t.equal(tokenIdToDecimal(hex), decimal, 'cached answer is the same');
  });

  t.test('behavior: bounds, leading zeros and case', async (t) => {
    const max = ((1n << 256n) - 1n).toString(10);
    t.equal(tokenIdFromDecimal(max), 'f'.repeat(64));
    t.equal(tokenIdToDecimal('F'.repeat(64)), max);
    t.equal(tokenIdFromDecimal('0'), '0'.repeat(64));
    t.equal(tokenIdFromDecimal('256'), '0'.repeat(61) + '100', 'zero-padded to 64 digits');
    t.equal(tokenIdToDecimal('0'.repeat(64)), '0');
    t.equal(tokenIdFromDecimal('0'.repeat(90) + '255'), '0'.repeat(62) + 'ff');
  });

  t.test('behavior: round trips every vector id', async (t) => {
    let mismatches = 0;
    for (const token of vectors.tokens) {
      if (tokenIdToDecimal(tokenIdFromDecimal(token.tokenId)) !== token.tokenId) mismatches++;
    }
    t.equal(mismatches, 0);
  });

  t.test('behavior: stays correct past the cache cap', async (t) => {
    let mismatches = 0;
    for (let i = 0; i < 100_010; i++) {
      const hex = i.toString(16).padStart(64, '0');
      if (tokenIdToDecimal(hex) !== String(i)) mismatches++;
    }
    t.equal(tokenIdToDecimal('0'.repeat(63) + 'a'), '10');
    t.equal(mismatches, 0);
  });

  t.test('error: not decimal, above 2^256 - 1, not 64 hex', async (t) => {
    for (const bad of ['', '-1', '+1', '1e5', ' 12', '12 ', '0x10', '١٢']) {
      t.throws(
        () => tokenIdFromDecimal(bad),
        { name: 'RangeError', message: /must be a decimal integer/ },
        JSON.stringify(bad),
      );
    }
    t.throws(() => tokenIdFromDecimal((1n << 256n).toString(10)), /above 2\^256 - 1/);
    t.throws(() => tokenIdFromDecimal('9'.repeat(79)), /more than 78 digits/);
    t.throws(() => tokenIdToDecimal('0x' + '0'.repeat(62)), /64 hex digits without 0x/);
    t.throws(() => tokenIdToDecimal('0'.repeat(63)), RangeError);
    t.throws(() => tokenIdToDecimal('g'.repeat(64)), RangeError);
  });
});
