// Feed aggregators found over JSON-RPC (docs/design.md 6): phaseId() then phaseAggregators(1..phaseId) of each proxy,
// against a node answering eth_call by selector (a viem custom transport): every phase's aggregator, in phase
// order, repeats once; a contract that answers no phase, or a zero address, is left out.
import t from 'tap';
import { custom, toFunctionSelector } from 'viem';
import { createRpcClient } from '../../replay/source/createRpcClient.js';
import { discoverFeedAggregators } from '../../replay/source/discoverFeedAggregators.js';

const PROXY = '0x' + 'a1'.repeat(20);
const OTHER = '0x' + 'b2'.repeat(20);
const NOT_A_PROXY = '0x' + 'c3'.repeat(20);
const AGG = (n: number) => '0x' + n.toString(16).padStart(40, '0');
const word = (hex: string) => '0x' + hex.replace(/^0x/, '').padStart(64, '0');
const PHASE_ID = toFunctionSelector('phaseId()');
const PHASE_AGGREGATORS = toFunctionSelector('phaseAggregators(uint16)');

// PROXY: three phases (aggregators 0x..11, 0x..22, and 0x..11 again); OTHER: one; NOT_A_PROXY: reverts to '0x'.
const phases: Record<string, string[]> = { [PROXY]: [AGG(0x11), AGG(0x22), AGG(0x11)], [OTHER]: [AGG(0x33)] };
const calls: string[] = [];
const transport = custom({
  async request({ method, params }: { method: string; params: Array<{ to: string; data: string }> }) {
    if (method !== 'eth_call') throw new Error(`unexpected ${method}`);
    const { to, data } = params[0]!;
    calls.push(`${to.slice(0, 6)}:${data.slice(0, 10)}`);
    const list = phases[to];
    if (!list) return '0x';
    if (data === PHASE_ID) return word(list.length.toString(16));
    if (data.startsWith(PHASE_AGGREGATORS)) return word(list[parseInt(data.slice(10), 16) - 1] ?? '0');
    return '0x';
  },
});

t.test('default: every phase of each proxy, found once', async (t) => {
  const rpc = createRpcClient({ url: 'http://127.0.0.1:1', transport });
  const found = await discoverFeedAggregators(rpc, [PROXY, OTHER, NOT_A_PROXY]);
  t.same(found, { [PROXY]: [AGG(0x11), AGG(0x22)], [OTHER]: [AGG(0x33)] });
  t.equal(calls.filter((call) => call.endsWith(PHASE_AGGREGATORS)).length, 4, 'phases 1..phaseId asked for');
});
