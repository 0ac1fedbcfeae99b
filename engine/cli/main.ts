// The `tally` command line (DESIGN.md section 8). Every command takes --data DIR (default data/venue, or
// TALLY_DATA); PORT sets the port. Bad input ends with a message naming the file and line, exit code 1.
import { parseArgs } from 'node:util';
import { InputError } from '../../replay/source/inputError.js';
import { createApiKey } from '../offchain/apiKeys.js';
import { openOffchainStore } from '../offchain/openOffchainStore.js';
import { dataPaths } from '../dataDir.js';
import { demoCommand } from './commands/demoCommand.js';
import { ingestCommand } from './commands/ingestCommand.js';
import { keysCommand } from './commands/keysCommand.js';
import { metadataCommand } from './commands/metadataCommand.js';
import { profilesCommand } from './commands/profilesCommand.js';
import { replayCommand } from './commands/replayCommand.js';
import { ingestRpcCommand } from './commands/ingestRpcCommand.js';
import { rewindCommand } from './commands/rewindCommand.js';
import { runCommand } from './commands/runCommand.js';
import { serveCommand, startServer } from './commands/serveCommand.js';
import { verifyCommand } from './commands/verifyCommand.js';

const USAGE = `usage: tally <command> [--data DIR] [flags]
  demo [--fills N] [--seed S]          generate and fold the demo venue (empty data directory only)
  ingest --capture FILE [--metadata F] fold a capture file of chain logs
  ingest --rpc URL [--follow]          fold finalized logs from a JSON-RPC node (--start-block N when empty)
  metadata --file F | --url U          load market metadata (Gamma market objects)
  profiles --file F | --url U          load wallet profiles
  keys create | revoke KEY | list      manage API keys
  serve [--host H] [--port P]          serve the API
  start                                demo if empty, create a key, serve (npm start)
  run --rpc URL [--host H] [--port P]  follow the chain and serve, in one process (--start-block N)
  replay --to-block N --out DIR        build the state as of block N from the log alone
  verify                               refold the log and compare the per-block checksums
  rewind --to-block N                  truncate the log after block N and refold
common flags: --data DIR (default data/venue or TALLY_DATA), --workers N (fold workers, default 1);
ingest tuning: --batch-logs N (logs per batch, 25000), --release-every N (events between releases of the
state map at the latest, 500000; memory decides sooner);
TALLY_RPC_URL stands in for --rpc URL`;

function integer(value: string | undefined, name: string): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value)) throw new Error(`--${name} must be a non-negative integer, got ${value}`);
  return Number(value);
}

async function main(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      data: { type: 'string' }, capture: { type: 'string' }, metadata: { type: 'string' }, file: { type: 'string' },
      url: { type: 'string' }, host: { type: 'string' }, port: { type: 'string' }, 'to-block': { type: 'string' },
      out: { type: 'string' }, workers: { type: 'string' }, fills: { type: 'string' }, seed: { type: 'string' },
      'batch-logs': { type: 'string' }, rpc: { type: 'string' }, follow: { type: 'boolean' }, help: { type: 'boolean' },
      'start-block': { type: 'string' }, 'release-every': { type: 'string' },
    },
  });
  const [command, ...args] = positionals;
  if (!command || values.help) {
    console.log(USAGE);
    return command ? 0 : 2;
  }
  const data = values.data ?? process.env.TALLY_DATA ?? 'data/venue';
  const workers = integer(values.workers, 'workers');
  const host = values.host ?? '127.0.0.1';
  const port = integer(values.port ?? process.env.PORT, 'port') ?? 8080;
  const toBlock = () => {
    const block = integer(values['to-block'], 'to-block');
    if (block === undefined) throw new Error(`${command} needs --to-block N`);
    return block;
  };
  switch (command) {
    case 'demo':
      await demoCommand({ data, fills: integer(values.fills, 'fills'), seed: integer(values.seed, 'seed'), workers });
      return 0;
    case 'ingest': {
      if (values.rpc && values.capture) throw new Error('ingest takes --capture FILE or --rpc URL, not both');
      // TALLY_RPC_URL stands in for --rpc only when nothing else says what to ingest.
      const rpc = values.rpc ?? (values.capture || values.metadata ? undefined : process.env.TALLY_RPC_URL);
      if (rpc) {
        await ingestRpcCommand({
          data, rpc, follow: values.follow ?? false, startBlock: integer(values['start-block'], 'start-block'), metadata: values.metadata, workers,
        });
        return 0;
      }
      if (values.follow) throw new Error('--follow needs --rpc URL');
      await ingestCommand({
        data, capture: values.capture, metadata: values.metadata, workers, batchLogs: integer(values['batch-logs'], 'batch-logs'),
        releaseEvery: integer(values['release-every'], 'release-every'),
      });
      return 0;
    }
    case 'run': {
      const rpc = values.rpc ?? process.env.TALLY_RPC_URL;
      if (!rpc) throw new Error('run needs --rpc URL (or TALLY_RPC_URL)');
      await runCommand({ data, rpc, host, port, startBlock: integer(values['start-block'], 'start-block'), workers });
      return 0;
    }
    case 'metadata':
      await metadataCommand({ data, file: values.file, url: values.url });
      return 0;
    case 'profiles':
      await profilesCommand({ data, file: values.file, url: values.url });
      return 0;
    case 'keys':
      await keysCommand({ data }, args);
      return 0;
    case 'serve':
      await serveCommand({ data, host, port });
      return 0;
    case 'start': {
      await demoCommand({ data, workers });
      const offchain = openOffchainStore({ dir: dataPaths(data).offchain });
      const key = await createApiKey(offchain, Math.floor(Date.now() / 1000));
      await offchain.close();
      const server = await startServer({ data, host, port });
      console.log(`tally is serving the demo venue at http://${host}:${server.port}/v1`);
      console.log(`API key: ${key}`);
      console.log(`try: curl -H 'Authorization: Bearer ${key}' http://${host}:${server.port}/v1/health`);
      await new Promise<void>((resolve) => {
        process.once('SIGINT', () => resolve());
        process.once('SIGTERM', () => resolve());
      });
      await server.closeAll();
      return 0;
    }
    case 'replay':
      if (!values.out) throw new Error('replay needs --out DIR');
      await replayCommand({ data, toBlock: toBlock(), out: values.out, workers });
      return 0;
    case 'verify':
      return (await verifyCommand({ data, workers })) ? 0 : 1;
    case 'rewind':
      await rewindCommand({ data, toBlock: toBlock(), workers });
      return 0;
    default:
      console.error(`tally: unknown command ${command}\n${USAGE}`);
      return 2;
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    if (error instanceof InputError) console.error(`tally: ${error.message}`);
    else if (error instanceof Error && !(error instanceof TypeError) && !(error instanceof RangeError)) console.error(`tally: ${error.message}`);
    else console.error(error);
    process.exit(1);
  },
);
