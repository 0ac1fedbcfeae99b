// `tally run`'s follow: a service keeps answering from the state it has while its node is away. Requests are
// retried forever with capped backoff (config.json `rpc.maxBackoffMs`); a failure that ends a follow (a fatal
// answer, a block hash that differs from the log's) is recorded as the source's outage for /v1/health, told once
// a minute, and the follow starts again after a capped wait, resuming from the log's last block. Only a node that
// has never answered for this data directory ends the run, within seconds: most likely a wrong URL.
import type { Venue } from '../openVenue.js';
import { createOutageReport } from '../createOutageReport.js';
import { describeRetry } from '../describeRetry.js';
import { followRpc } from './followRpc.js';
import { FinalityMismatchError, RpcFatalError } from '../../replay/source/rpcErrors.js';
import { loadRpcRetry } from '../../replay/source/loadRpcRetry.js';
import { FIRST_CONNECTION_RETRY, sleep } from '../../replay/source/retryRpc.js';
import { nextOutage, readSourceOutage, writeSourceOutage } from '../../engine/state/sourceOutage.js';
import { readSourceHead } from '../../engine/state/sourceHead.js';

/** What a follow can fail with that waiting may mend; anything else (a full disk, a bug) ends the run. */
const isSourceFailure = (error: unknown) => error instanceof RpcFatalError || error instanceof FinalityMismatchError;

export async function followChainForever(
  venue: Venue,
  options: {
    rpc: string;
    startBlock?: number;
    label: string;
    /** Passed to each follow (followRpc). */
    offchainChanged?: () => boolean;
    onCommitted?: () => void;
  },
): Promise<void> {
  const retry = loadRpcRetry(venue.paths.config);
  const report = createOutageReport({
    label: options.label,
    maxBackoffMs: retry.maxMs,
    print: (line) => process.stderr.write(line + '\n'),
  });
  const controller = new AbortController();
  const stop = () => controller.abort();
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  try {
    for (let failures = 0; !controller.signal.aborted; ) {
      // The node has answered for this directory before (its head is recorded): an outage, not a wrong URL.
      const answeredBefore = readSourceHead(venue.store) !== null;
      try {
        await followRpc(venue, {
          rpc: options.rpc,
          follow: true,
          startBlock: options.startBlock,
          label: options.label,
          sharedWithServer: true,
          offchainChanged: options.offchainChanged,
          onCommitted: options.onCommitted,
          signal: controller.signal,
          retry,
          firstRetry: answeredBefore ? retry : FIRST_CONNECTION_RETRY,
          // Until the node first answers for this directory each retry is told (a wrong URL shows at once); an
          // outage of a node that answered, once a minute.
          onRetry: (attempt) => {
            if (readSourceHead(venue.store) !== null) report.failed(attempt.cause);
            else process.stderr.write(`${options.label}: ${describeRetry(attempt)}\n`);
          },
          onRecovered: (outage) => {
            failures = 0;
            report.recovered(outage);
          },
        });
        return;
      } catch (error) {
        if (controller.signal.aborted) return;
        if (!isSourceFailure(error) || readSourceHead(venue.store) === null) throw error;
        const cause = (error as Error).message;
        await writeSourceOutage(
          venue.store,
          nextOutage(readSourceOutage(venue.store), cause, Math.floor(Date.now() / 1000)),
        );
        report.failed(cause);
        await sleep(Math.min(retry.maxMs, retry.baseMs * 2 ** failures++), controller.signal);
      }
    }
  } finally {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
  }
}
