// Every `tally` command: its synopsis, its help and its flags, and how it runs. A command's module is imported
// only when that command runs, so `tally --help` or `tally keys list` never load the fold, the decoder or the
// HTTP front (loading all of them cost most of the start-up time).
import { availableParallelism } from 'node:os';
import { FOLD_BATCH_LOGS, MAX_DEFAULT_WALLET_WORKERS, POSITION_CACHE } from '../engine/limits.js';
import { UsageError } from './usageError.js';
import { httpUrl, integerFlag, stringFlag, type FlagSpec, type ParsedFlags } from './parseFlags.js';

export interface CommandSpec {
  synopsis: string;
  summary: string;
  /** Lines of help after the flags. */
  notes?: string[];
  flags: Record<string, FlagSpec>;
  /** Positional arguments are refused unless the command takes them. */
  positionals?: boolean;
  run(flags: ParsedFlags): Promise<number>;
}

const DATA: FlagSpec = { value: 'DIR', help: 'the data directory (default data/venue, or TALLY_DATA)' };
const MAX_THREADS = 64;
const WORKERS: FlagSpec = {
  value: 'N',
  help: `wallet worker threads of the fold, 1 to 64 (default: the cores less 2, 1 to ${MAX_DEFAULT_WALLET_WORKERS}; any count folds the same bytes)`,
};
const HOST: FlagSpec = { value: 'H', help: 'the address to listen on (default 127.0.0.1)' };
const PORT: FlagSpec = { value: 'P', help: 'the port, 1 to 65535, or 0 for any free one (default 8080, or PORT)' };
const ACCESS_LOG: FlagSpec = {
  help: 'print a line per request (time, client, request, status, ms, key prefix); none by default',
};
const THREADS: FlagSpec = {
  value: 'N',
  help: `threads serving the port, 1 to ${MAX_THREADS} (default the cores, or TALLY_THREADS); limits stay exact across them`,
};
const NATS: FlagSpec = {
  value: 'URL',
  help: 'the NATS servers, comma-separated (nats://127.0.0.1:4222,nats://127.0.0.1:4223)',
};
const STREAM: FlagSpec = { value: 'S', help: 'the JetStream stream (default TALLY)' };
const TO_BLOCK: FlagSpec = { value: 'N', help: 'the last block to keep' };
const START_BLOCK: FlagSpec = { value: 'N', help: 'the first block to read when the log is empty' };

export const MAX_WORKERS = 64;
/** A replica's consumer silent this long while the stream holds more is taken for stalled (readLogStream.ts). */
const REPLICA_STALL_SECONDS = 5;

function dataOf(flags: ParsedFlags): string {
  return stringFlag(flags.values, 'data') ?? process.env.TALLY_DATA ?? 'data/venue';
}

function workersOf(flags: ParsedFlags): number | undefined {
  return integerFlag(flags.values, 'workers', 1, MAX_WORKERS);
}

function threadsOf(flags: ParsedFlags): number {
  const values =
    flags.values.threads === undefined && process.env.TALLY_THREADS !== undefined
      ? { threads: process.env.TALLY_THREADS }
      : flags.values;
  // One a core: each thread reads the memory-mapped state on its own, so they share nothing but the counters.
  return integerFlag(values, 'threads', 1, MAX_THREADS) ?? Math.min(MAX_THREADS, availableParallelism());
}

function hostOf(flags: ParsedFlags): string {
  return stringFlag(flags.values, 'host') ?? '127.0.0.1';
}

function portOf(flags: ParsedFlags): number {
  const values =
    flags.values.port === undefined && process.env.PORT !== undefined ? { port: process.env.PORT } : flags.values;
  return integerFlag(values, 'port', 0, 65535) ?? 8080;
}

function required(flags: ParsedFlags, name: string, command: string): string {
  const value = stringFlag(flags.values, name);
  if (value === undefined) throw new UsageError(`${command} needs --${name} (tally ${command} --help)`);
  return value;
}

function requiredBlock(flags: ParsedFlags, command: string): number {
  required(flags, 'to-block', command);
  return integerFlag(flags.values, 'to-block', 0)!;
}

export const COMMANDS: Record<string, CommandSpec> = {
  demo: {
    synopsis: 'demo [--fills N] [--seed S]',
    summary: 'generate the seeded demo venue and fold it (an empty data directory only)',
    flags: {
      data: DATA,
      fills: { value: 'N', help: 'fills to simulate (default 200000)' },
      seed: { value: 'S', help: 'the simulator seed (default 1)' },
      workers: WORKERS,
    },
    async run(flags) {
      const { demoCommand } = await import('./commands/demoCommand.js');
      await demoCommand({
        data: dataOf(flags),
        fills: integerFlag(flags.values, 'fills', 1),
        seed: integerFlag(flags.values, 'seed', 0),
        workers: workersOf(flags),
      });
      return 0;
    },
  },
  ingest: {
    synopsis: 'ingest [--capture FILE | --rpc URL [--follow]] [--metadata FILE]',
    summary: 'append chain logs to the log and fold them; with no source, fold what the log holds beyond the state',
    notes: [
      'A capture is NDJSON, one eth_getLogs log object per line, ordered by block and log index. A bad line stops',
      'ingest with FILE:LINE and exit code 1; nothing of its batch is folded, earlier batches stay folded, and',
      're-running with the fixed file resumes. TALLY_RPC_URL stands in for --rpc when no source is given.',
    ],
    flags: {
      data: DATA,
      capture: { value: 'FILE', help: 'a capture file of chain logs' },
      rpc: { value: 'URL', help: 'a JSON-RPC node: its finalized logs' },
      follow: { help: 'with --rpc: keep polling the node until SIGINT or SIGTERM' },
      'start-block': START_BLOCK,
      metadata: { value: 'FILE', help: 'market metadata to load as well (Gamma market objects)' },
      workers: WORKERS,
      'batch-logs': { value: 'N', help: `capture logs per batch (default ${FOLD_BATCH_LOGS})` },
      'release-every': { value: 'N', help: 'events between releases of the state map at the latest (default 500000)' },
      'position-cache': {
        value: 'N',
        help: `positions the wallet workers keep between batches, all together (default ${POSITION_CACHE})`,
      },
      live: { help: 'fold live from the first block, never backfilling (the reference a backfill is checked against)' },
    },
    async run(flags) {
      const data = dataOf(flags);
      const capture = stringFlag(flags.values, 'capture');
      const metadata = stringFlag(flags.values, 'metadata');
      if (flags.values.rpc !== undefined && capture !== undefined)
        throw new UsageError('ingest takes --capture FILE or --rpc URL, not both');
      // TALLY_RPC_URL stands in for --rpc only when nothing else says what to ingest.
      const rpc = rpcUrlOf(flags, !capture && !metadata);
      if (rpc !== undefined) {
        const { ingestRpcCommand } = await import('./commands/ingestRpcCommand.js');
        await ingestRpcCommand({
          data,
          rpc,
          follow: flags.values.follow === true,
          startBlock: integerFlag(flags.values, 'start-block', 0),
          metadata,
          workers: workersOf(flags),
        });
        return 0;
      }
      if (flags.values.follow) throw new UsageError('ingest: --follow needs --rpc URL');
      const { ingestCommand } = await import('./commands/ingestCommand.js');
      await ingestCommand({
        data,
        capture,
        metadata,
        workers: workersOf(flags),
        batchLogs: integerFlag(flags.values, 'batch-logs', 1),
        releaseEvery: integerFlag(flags.values, 'release-every', 1),
        positionCache: integerFlag(flags.values, 'position-cache', 1),
        live: flags.values.live === true,
      });
      return 0;
    },
  },
  capture: {
    synopsis: 'capture --rpc URL [--from-block A] [--to-block B] --out FILE',
    summary: "write a node's finalized venue logs of blocks A..B as a capture file",
    notes: [
      'Reads like ingest --rpc (the same filters, adaptive ranges and retries) and fills in blockTimestamp from the',
      "block headers when the node leaves it out. The contract addresses are DIR/config.json's when there is one.",
      'FILE must be new. Stopped early, FILE keeps whole blocks and the last line names the --from-block another',
      'capture continues from.',
    ],
    flags: {
      data: DATA,
      rpc: { value: 'URL', help: 'a JSON-RPC node (or TALLY_RPC_URL)' },
      'from-block': {
        value: 'A',
        help: "the first block (default 4023686, the CTF's deployment, for the Polygon addresses; else 0)",
      },
      'to-block': { value: 'B', help: "the last block (default the node's finalized block)" },
      out: { value: 'FILE', help: 'the capture file to write (must not exist)' },
    },
    async run(flags) {
      const rpc = rpcUrlOf(flags, true);
      if (!rpc) throw new UsageError('capture needs --rpc URL (or TALLY_RPC_URL)');
      const out = required(flags, 'out', 'capture');
      const fromBlock = integerFlag(flags.values, 'from-block', 0);
      const toBlock = integerFlag(flags.values, 'to-block', fromBlock ?? 0);
      const { captureCommand } = await import('./commands/captureCommand.js');
      await captureCommand({ data: dataOf(flags), rpc, out, fromBlock, toBlock });
      return 0;
    },
  },
  metadata: {
    synopsis: 'metadata --file F | --url U',
    summary:
      'load market metadata (Gamma market objects: a file, JSON array or NDJSON, or the market API page by page)',
    flags: {
      data: DATA,
      file: { value: 'F', help: 'a file of market objects' },
      url: {
        value: 'U',
        help: 'the market API, paged by offset or next_cursor (https://gamma-api.polymarket.com/markets)',
      },
    },
    async run(flags) {
      const { metadataCommand } = await import('./commands/metadataCommand.js');
      await metadataCommand({ data: dataOf(flags), ...sourceOf(flags, 'metadata') });
      return 0;
    },
  },
  profiles: {
    synopsis: 'profiles --file F | --url U',
    summary: 'load wallet profiles (proxyWallet, name, pseudonym, profileImage; a JSON array)',
    flags: {
      data: DATA,
      file: { value: 'F', help: 'a file of profiles' },
      url: { value: 'U', help: 'an HTTP URL answering them' },
    },
    async run(flags) {
      const { profilesCommand } = await import('./commands/profilesCommand.js');
      await profilesCommand({ data: dataOf(flags), ...sourceOf(flags, 'profiles') });
      return 0;
    },
  },
  keys: {
    synopsis: 'keys create | add KEY | revoke KEY | list',
    summary:
      'manage API keys (create prints the new key as its last line; add stores one made elsewhere, for replicas; revoke takes the key or a unique prefix)',
    flags: { data: DATA },
    positionals: true,
    async run(flags) {
      const { keysCommand } = await import('./commands/keysCommand.js');
      await keysCommand({ data: dataOf(flags) }, flags.positionals);
      return 0;
    },
  },
  serve: {
    synopsis: 'serve [--host H] [--port P] [--threads N] [--access-log]',
    summary: 'serve the /v1 HTTP API (and /metrics) over the folded state',
    flags: { data: DATA, host: HOST, port: PORT, threads: THREADS, 'access-log': ACCESS_LOG },
    async run(flags) {
      const { serveCommand } = await import('./commands/serveCommand.js');
      await serveCommand({
        data: dataOf(flags),
        host: hostOf(flags),
        port: portOf(flags),
        threads: threadsOf(flags),
        accessLog: flags.values['access-log'] === true,
      });
      return 0;
    },
  },
  start: {
    synopsis: 'start [--host H] [--port P]',
    summary: 'demo if the data directory is empty, create a key, serve (what npm start runs)',
    flags: { data: DATA, host: HOST, port: PORT, workers: WORKERS },
    async run(flags) {
      const { startCommand } = await import('./commands/startCommand.js');
      await startCommand({ data: dataOf(flags), host: hostOf(flags), port: portOf(flags), workers: workersOf(flags) });
      return 0;
    },
  },
  run: {
    synopsis: 'run --rpc URL [--host H] [--port P] [--threads N] [--access-log] [--metadata-url U]',
    summary: 'follow the chain and serve, in one process (production mode)',
    flags: {
      data: DATA,
      rpc: { value: 'URL', help: 'a JSON-RPC node (or TALLY_RPC_URL)' },
      host: HOST,
      port: PORT,
      'start-block': START_BLOCK,
      workers: WORKERS,
      threads: THREADS,
      'access-log': ACCESS_LOG,
      'metadata-url': {
        value: 'U',
        help: 'the market API to load metadata from at start and every 10 minutes (as tally metadata --url)',
      },
      'metadata-every': { value: 'S', help: 'seconds between metadata refreshes (default 600)' },
    },
    async run(flags) {
      const rpc = rpcUrlOf(flags, true);
      if (!rpc) throw new UsageError('run needs --rpc URL (or TALLY_RPC_URL)');
      const metadataUrl = stringFlag(flags.values, 'metadata-url');
      const metadataEvery = integerFlag(flags.values, 'metadata-every', 1);
      if (metadataEvery !== undefined && metadataUrl === undefined) {
        throw new UsageError('run: --metadata-every needs --metadata-url U');
      }
      const { runCommand } = await import('./commands/runCommand.js');
      await runCommand({
        data: dataOf(flags),
        rpc,
        host: hostOf(flags),
        port: portOf(flags),
        startBlock: integerFlag(flags.values, 'start-block', 0),
        workers: workersOf(flags),
        threads: threadsOf(flags),
        accessLog: flags.values['access-log'] === true,
        metadataUrl: metadataUrl === undefined ? undefined : httpUrl(metadataUrl, 'run: --metadata-url'),
        metadataEveryMs: metadataEvery === undefined ? undefined : metadataEvery * 1000,
      });
      return 0;
    },
  },
  devnet: {
    synopsis: 'devnet [--host H] [--port P] [--pace N] [--capture FILE] [--start-block N]',
    summary: "a local JSON-RPC node serving a venue's chain (the demo's by default), revealing its blocks at a pace",
    notes: [
      "The chain is DIR/demo/capture.ndjson (the demo's inputs are generated, not folded, into an empty data",
      'directory) or --capture FILE; its contracts at the addresses of DIR/config.json (the Polygon defaults), its',
      "price feeds behind the feeds' proxies. Blocks between the capture's are empty, with times in between; the",
      'head starts six hours of chain time before the capture ends (or at --start-block) and moves --pace chain',
      'seconds a second (0: the whole capture at once); finalized trails it by 16 blocks. Until SIGINT or SIGTERM.',
    ],
    flags: {
      data: DATA,
      host: HOST,
      port: { value: 'P', help: 'the port, 1 to 65535, or 0 for any free one (default 8545)' },
      pace: { value: 'N', help: "chain seconds a second (default 1: the venue's own pace; 0: all blocks at once)" },
      capture: { value: 'FILE', help: "a capture file to serve instead of the demo's" },
      'start-block': { value: 'N', help: 'the head at the start (default six hours of chain time before the end)' },
      fills: { value: 'N', help: 'fills of the demo venue generated into an empty data directory (default 200000)' },
    },
    async run(flags) {
      const { devnetCommand } = await import('./commands/devnetCommand.js');
      await devnetCommand({
        data: dataOf(flags),
        capture: stringFlag(flags.values, 'capture'),
        host: hostOf(flags),
        port: integerFlag(flags.values, 'port', 0, 65535) ?? 8545,
        pace: integerFlag(flags.values, 'pace', 0) ?? 1,
        startBlock: integerFlag(flags.values, 'start-block', 0),
        fills: integerFlag(flags.values, 'fills', 1),
      });
      return 0;
    },
  },
  publish: {
    synopsis: 'publish --nats URL [--stream S] [--capture FILE | --rpc URL] [--metadata FILE]',
    summary: "fold a source as ingest does and append the log's frames to a JetStream stream (for replicas)",
    notes: [
      'The stream (default TALLY) is created on first use with file storage on 3 servers. Each append is',
      "conditioned on the stream's last sequence, so a restarted publisher goes on exactly where the stream ends",
      'and a second one is refused. After the frames go the changes of keys, metadata and profiles stored in this',
      'directory (by tally keys, metadata, profiles, even while it runs) and the latest wallet-tag run, so every',
      'replica answers as this directory does. With no source, it publishes what the directory holds beyond the',
      'stream and stops.',
    ],
    flags: {
      data: DATA,
      nats: NATS,
      stream: STREAM,
      capture: { value: 'FILE', help: 'a capture file of chain logs' },
      rpc: { value: 'URL', help: 'a JSON-RPC node: its finalized logs, followed until SIGINT or SIGTERM' },
      'start-block': START_BLOCK,
      metadata: { value: 'FILE', help: 'market metadata to load, and so publish (Gamma market objects)' },
      replicas: { value: 'N', help: 'servers that keep the stream when it is created (default 3)' },
      workers: WORKERS,
      'batch-logs': { value: 'N', help: `capture logs per batch, so per frame (default ${FOLD_BATCH_LOGS})` },
    },
    async run(flags) {
      const capture = stringFlag(flags.values, 'capture');
      const rpc = stringFlag(flags.values, 'rpc');
      if (rpc !== undefined && capture !== undefined)
        throw new UsageError('publish takes --capture FILE or --rpc URL, not both');
      const { publishCommand } = await import('./commands/publishCommand.js');
      await publishCommand({
        data: dataOf(flags),
        nats: required(flags, 'nats', 'publish'),
        stream: stringFlag(flags.values, 'stream'),
        capture,
        rpc: rpc === undefined ? undefined : httpUrl(rpc, 'publish: --rpc'),
        startBlock: integerFlag(flags.values, 'start-block', 0),
        metadata: stringFlag(flags.values, 'metadata'),
        replicas: integerFlag(flags.values, 'replicas', 1, 5),
        workers: workersOf(flags),
        batchLogs: integerFlag(flags.values, 'batch-logs', 1),
      });
      return 0;
    },
  },
  replica: {
    synopsis: 'replica --nats URL [--stream S] [--host H] [--port P] [--threads N] [--access-log]',
    summary: "fold a publisher's JetStream stream and serve it, in one process",
    notes: [
      "Starts from an empty data directory (with the publisher's config.json, if it has one) and reads on from the",
      'sequence its state holds after a restart. /v1/health gives the stream sequence, the block and its checksum.',
    ],
    flags: {
      data: DATA,
      nats: NATS,
      stream: STREAM,
      host: HOST,
      port: PORT,
      workers: WORKERS,
      threads: THREADS,
      'access-log': ACCESS_LOG,
      'stall-seconds': {
        value: 'S',
        help: 'how long a consumer may deliver nothing while the stream holds more before it is made anew (default 5)',
      },
    },
    async run(flags) {
      const { replicaCommand } = await import('./commands/replicaCommand.js');
      await replicaCommand({
        data: dataOf(flags),
        nats: required(flags, 'nats', 'replica'),
        stream: stringFlag(flags.values, 'stream'),
        host: hostOf(flags),
        port: portOf(flags),
        workers: workersOf(flags),
        threads: threadsOf(flags),
        accessLog: flags.values['access-log'] === true,
        stallMs: (integerFlag(flags.values, 'stall-seconds', 1, 3600) ?? REPLICA_STALL_SECONDS) * 1000,
      });
      return 0;
    },
  },
  replay: {
    synopsis: 'replay --to-block N --out DIR',
    summary: 'a new data directory holding the state as of block N, rebuilt from the log alone',
    flags: {
      data: DATA,
      'to-block': TO_BLOCK,
      out: { value: 'DIR', help: 'the new data directory (must be empty)' },
      workers: WORKERS,
    },
    async run(flags) {
      const toBlock = requiredBlock(flags, 'replay');
      const out = required(flags, 'out', 'replay');
      const { replayCommand } = await import('./commands/replayCommand.js');
      await replayCommand({ data: dataOf(flags), toBlock, out, workers: workersOf(flags) });
      return 0;
    },
  },
  verify: {
    synopsis: 'verify [--capture FILE]',
    summary: "check the log's checksums, refold it and compare every block's state checksum",
    notes: [
      "With --capture, also check that the log holds every venue log of that capture up to the log's last block",
      '(ingests before that was checked could miss the rest of a block a capture had cut short).',
      "Compares through the state's cursor, so it may run while an ingest folds (it then says so).",
      'Exit codes: 0 all match; 1 a difference (named); 3 the state is behind its log and no process folds it',
      '(tally ingest catches it up).',
    ],
    flags: { data: DATA, capture: { value: 'FILE', help: 'a capture to compare the log with' }, workers: WORKERS },
    async run(flags) {
      const { verifyCommand } = await import('./commands/verifyCommand.js');
      return verifyCommand({
        data: dataOf(flags),
        capture: stringFlag(flags.values, 'capture'),
        workers: workersOf(flags),
      });
    },
  },
  rewind: {
    synopsis: 'rewind --to-block N',
    summary:
      'fold the log through block N, move that in as the state (a running server follows), truncate the log after N',
    flags: { data: DATA, 'to-block': TO_BLOCK, workers: WORKERS },
    async run(flags) {
      const toBlock = requiredBlock(flags, 'rewind');
      const { rewindCommand } = await import('./commands/rewindCommand.js');
      await rewindCommand({ data: dataOf(flags), toBlock, workers: workersOf(flags) });
      return 0;
    },
  },
};

function sourceOf(flags: ParsedFlags, command: string): { file?: string; url?: string } {
  const file = stringFlag(flags.values, 'file');
  const url = stringFlag(flags.values, 'url');
  if ((file === undefined) === (url === undefined))
    throw new UsageError(`${command} needs --file F or --url U (one of them)`);
  return { file, url: url === undefined ? undefined : httpUrl(url, `${command}: --url`) };
}

/** The node's URL, from --rpc or (when `fromEnv`) TALLY_RPC_URL, checked at once: a typo costs no retries. */
function rpcUrlOf(flags: ParsedFlags, fromEnv: boolean): string | undefined {
  const flag = stringFlag(flags.values, 'rpc');
  if (flag !== undefined) return httpUrl(flag, '--rpc');
  const env = fromEnv ? process.env.TALLY_RPC_URL : undefined;
  return env ? httpUrl(env, 'TALLY_RPC_URL') : undefined;
}

export function globalUsage(): string {
  const width = Math.max(...Object.keys(COMMANDS).map((name) => name.length));
  return [
    'usage: tally <command> [flags]   (tally <command> --help for its flags)',
    ...Object.entries(COMMANDS).map(([name, c]) => `  ${name.padEnd(width)}  ${c.summary}`),
    'Every command takes --data DIR (default data/venue, or TALLY_DATA).',
  ].join('\n');
}

export function commandHelp(name: string, spec: CommandSpec): string {
  const flags = Object.entries(spec.flags).map(
    ([flag, f]) => [`--${flag}${f.value ? ' ' + f.value : ''}`, f.help] as const,
  );
  const width = Math.max(...flags.map(([f]) => f.length));
  return [
    `usage: tally ${spec.synopsis}`,
    spec.summary[0]!.toUpperCase() + spec.summary.slice(1) + '.',
    '',
    ...flags.map(([f, help]) => `  ${f.padEnd(width)}  ${help}`),
    ...(spec.notes ? ['', ...spec.notes] : []),
  ].join('\n');
}

export function checkPositionals(name: string, spec: CommandSpec, flags: ParsedFlags): void {
  if (!spec.positionals && flags.positionals.length > 0) {
    throw new UsageError(`${name}: unexpected argument ${flags.positionals[0]} (tally ${name} --help)`);
  }
}
