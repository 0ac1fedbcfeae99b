// The JSON-RPC front of `tally devnet`: what `run`, `capture`, `ingest --rpc` and `publish --rpc` ask a node, over
// HTTP POST, single calls and batches. eth_chainId (137: the demo's contracts are at their Polygon addresses),
// eth_blockNumber, eth_getBlockByNumber (a number, `latest`, `finalized`, `safe`, `earliest`), eth_getLogs (block
// ranges with address and topic filters, capped at MAX_LOGS as hosted nodes cap them), eth_getCode (code at the
// venue's contracts and the feeds' proxies and aggregators, none elsewhere) and eth_call of a Chainlink proxy's
// phaseId() and phaseAggregators(uint16), which is how tally finds the aggregators that emit the feed's answers.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { toFunctionSelector } from 'viem';
import { TooManyLogsError, type DevnetChain, type LogFilter } from './devnetChain.js';

export const DEVNET_CHAIN_ID = 137;
/** Code any contract of the devnet answers (a STOP): what matters to a caller is that there is some. */
const SOME_CODE = '0x00';
const PHASE_ID = toFunctionSelector('phaseId()');
const PHASE_AGGREGATORS = toFunctionSelector('phaseAggregators(uint16)');
const MAX_BODY_BYTES = 1024 * 1024;

export interface DevnetContracts {
  /** Lowercase addresses that have code. */
  code: ReadonlySet<string>;
  /** A feed proxy's aggregators, by phase (phase 1 first). */
  proxies: ReadonlyMap<string, readonly string[]>;
}

class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

const hex = (n: number) => '0x' + n.toString(16);
const word = (value: bigint) => '0x' + value.toString(16).padStart(64, '0');

function blockNumberOf(chain: DevnetChain, value: unknown, what: string): number {
  if (value === undefined || value === 'latest' || value === 'pending') return chain.latest();
  if (value === 'finalized' || value === 'safe') return chain.finalized();
  if (value === 'earliest') return 0;
  if (typeof value === 'string' && /^0x[0-9a-fA-F]{1,16}$/.test(value)) return parseInt(value, 16);
  throw new RpcError(-32602, `${what}: a block number (0x hex) or tag, not ${JSON.stringify(value)}`);
}

function lowercaseSet(value: unknown, what: string): Set<string> | null {
  if (value === null || value === undefined) return null;
  const list = Array.isArray(value) ? value : [value];
  if (!list.every((item) => typeof item === 'string' && /^0x[0-9a-fA-F]*$/.test(item)))
    throw new RpcError(-32602, `${what}: 0x hex strings`);
  return new Set(list.map((item: string) => item.toLowerCase()));
}

function logFilter(chain: DevnetChain, value: unknown): LogFilter {
  if (typeof value !== 'object' || value === null) throw new RpcError(-32602, 'eth_getLogs takes one filter object');
  const filter = value as Record<string, unknown>;
  if (filter.blockHash !== undefined) throw new RpcError(-32602, 'eth_getLogs: blockHash filters are not served');
  if (filter.topics !== undefined && filter.topics !== null && !Array.isArray(filter.topics))
    throw new RpcError(-32602, 'eth_getLogs: topics must be an array');
  return {
    fromBlock: blockNumberOf(chain, filter.fromBlock, 'fromBlock'),
    toBlock: blockNumberOf(chain, filter.toBlock, 'toBlock'),
    address: lowercaseSet(filter.address, 'address'),
    topics: ((filter.topics as unknown[] | undefined) ?? []).map((topic, i) => lowercaseSet(topic, `topics[${i}]`)),
  };
}

function call(chain: DevnetChain, contracts: DevnetContracts, method: string, params: unknown[]): unknown {
  switch (method) {
    case 'eth_chainId':
      return hex(DEVNET_CHAIN_ID);
    case 'net_version':
      return String(DEVNET_CHAIN_ID);
    case 'web3_clientVersion':
      return 'tally-devnet';
    case 'eth_blockNumber':
      return hex(chain.latest());
    case 'eth_getBlockByNumber': {
      const header = chain.header(blockNumberOf(chain, params[0], 'block'));
      if (!header) return null;
      return {
        number: hex(header.number),
        hash: header.hash,
        parentHash: header.parentHash,
        timestamp: hex(header.timestamp),
        transactions: [],
      };
    }
    case 'eth_getLogs':
      return chain.logs(logFilter(chain, params[0]));
    case 'eth_getCode': {
      const [address] = params;
      if (typeof address !== 'string') throw new RpcError(-32602, 'eth_getCode takes an address');
      return contracts.code.has(address.toLowerCase()) ? SOME_CODE : '0x';
    }
    case 'eth_call': {
      const { to, data } = (params[0] ?? {}) as { to?: unknown; data?: unknown };
      if (typeof to !== 'string' || typeof data !== 'string') throw new RpcError(-32602, 'eth_call takes {to, data}');
      const phases = contracts.proxies.get(to.toLowerCase());
      if (!phases) return '0x';
      const selector = data.slice(0, 10).toLowerCase();
      if (selector === PHASE_ID) return word(BigInt(phases.length));
      if (selector === PHASE_AGGREGATORS && data.length === 10 + 64) {
        const aggregator = phases[Number(BigInt('0x' + data.slice(10))) - 1];
        return word(aggregator ? BigInt(aggregator) : 0n);
      }
      throw new RpcError(3, 'execution reverted');
    }
    default:
      throw new RpcError(-32601, `the method ${method} does not exist/is not available`);
  }
}

/** One request's answer as JSON text (eth_getLogs' logs are the capture's own lines, never parsed again). */
function answer(chain: DevnetChain, contracts: DevnetContracts, request: unknown): string {
  const { id = null, method, params = [] } = (request ?? {}) as { id?: unknown; method?: unknown; params?: unknown };
  const head = `{"jsonrpc":"2.0","id":${JSON.stringify(id)},`;
  try {
    if (typeof method !== 'string' || !Array.isArray(params)) throw new RpcError(-32600, 'invalid request');
    const result = call(chain, contracts, method, params);
    if (method === 'eth_getLogs') return `${head}"result":[${(result as string[]).join(',')}]}`;
    return `${head}"result":${JSON.stringify(result)}}`;
  } catch (error) {
    if (error instanceof TooManyLogsError)
      return `${head}"error":${JSON.stringify({ code: -32005, message: error.message })}}`;
    if (!(error instanceof RpcError)) throw error;
    return `${head}"error":${JSON.stringify({ code: error.code, message: error.message })}}`;
  }
}

async function readBody(request: IncomingMessage): Promise<string | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) return null;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

export function serveDevnet(chain: DevnetChain, contracts: DevnetContracts): Server {
  return createServer(async (request, response) => {
    const reply = (status: number, body: string) => {
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(body);
    };
    if (request.method !== 'POST')
      return reply(405, '{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"POST a JSON-RPC request"}}');
    const body = await readBody(request);
    if (body === null)
      return reply(413, '{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"request too large"}}');
    let parsed: unknown;
    try {
      parsed = JSON.parse(body);
    } catch {
      return reply(200, '{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"parse error"}}');
    }
    reply(
      200,
      Array.isArray(parsed)
        ? `[${parsed.map((item) => answer(chain, contracts, item)).join(',')}]`
        : answer(chain, contracts, parsed),
    );
  });
}

export const devnetUrl = (server: Server) => {
  const { address, port } = server.address() as AddressInfo;
  return `http://${address.includes(':') ? `[${address}]` : address}:${port}`;
};
