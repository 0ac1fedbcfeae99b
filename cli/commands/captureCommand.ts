// `tally capture --rpc URL [--from-block A] [--to-block B] --out FILE` (README.md, Commands): the venue's finalized
// logs of blocks A..B from a JSON-RPC node, written as a capture file (replay/README.md, Capture from a node) that
// `tally ingest --capture` folds to the state an `ingest --rpc` of the same blocks folds to. The contract addresses
// are DIR/config.json's when there is one. FILE must be new; a capture stopped (SIGINT/SIGTERM, or a node that
// fails for good) keeps the whole blocks it wrote, and the line it ends with says where another capture continues.
import { closeSync, fstatSync, ftruncateSync, openSync, unlinkSync, writeSync } from 'node:fs';
import { loadVenueAddresses } from '../../engine/chain/loadVenueAddresses.js';
import { EnvironmentError } from '../../engine/environmentError.js';
import { RefusedError } from '../../engine/refusedError.js';
import { dataPaths } from '../../engine/dataDir.js';
import { captureRpcLogs, type CaptureProgress } from '../../replay/source/captureRpcLogs.js';
import { defaultStartBlock } from '../../replay/source/readRpcBatches.js';
import { createBlockProgress } from '../blockProgress.js';
import { describeRetry } from '../describeRetry.js';
import { describeSystemError } from '../describeSystemError.js';
import { createProgress } from '../progress.js';

function openNewFile(out: string): number {
  try {
    return openSync(out, 'wx');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') {
      throw new RefusedError(`--out ${out} exists: capture writes a new file (give another name, or remove it)`);
    }
    const described = describeSystemError(error);
    if (described === null) throw error;
    throw new RefusedError(`--out ${described}`, { cause: error });
  }
}

export async function captureCommand(flags: {
  data: string;
  rpc: string;
  out: string;
  fromBlock?: number;
  toBlock?: number;
}): Promise<void> {
  const addresses = loadVenueAddresses(dataPaths(flags.data).config);
  const fromBlock = flags.fromBlock ?? defaultStartBlock(addresses);
  const fd = openNewFile(flags.out);
  const controller = new AbortController();
  const stop = () => controller.abort();
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  const progress = createProgress('capture');
  const blocks = createBlockProgress(fromBlock);
  let last = flags.toBlock ?? -1;
  let checked = false;
  let written = 0;
  let result: CaptureProgress = { logs: 0, blocks: 0, scannedBlock: fromBlock - 1 };
  const held = () =>
    result.scannedBlock >= fromBlock
      ? `${flags.out} holds blocks ${fromBlock} to ${result.scannedBlock}, whole`
      : `${flags.out} holds no block`;
  const continueFrom = () => `tally capture --from-block ${result.scannedBlock + 1} continues into another file`;
  try {
    result = await captureRpcLogs({
      url: flags.rpc,
      addresses,
      fromBlock,
      toBlock: flags.toBlock,
      signal: controller.signal,
      write(lines) {
        try {
          writeSync(fd, lines);
        } catch (error) {
          // A range written in part would end the file inside a block: cut back to the last whole range.
          ftruncateSync(fd, written);
          throw new EnvironmentError(`cannot write ${flags.out}: ${(error as Error).message}`, { cause: error });
        }
        written = fstatSync(fd).size;
      },
      onHead(head) {
        // Checked against the first head only: a load-balanced provider may answer a block or two behind later.
        if (flags.toBlock === undefined) last = head.block;
        if (checked) return;
        checked = true;
        if (flags.toBlock !== undefined && flags.toBlock > head.block) {
          throw new RefusedError(
            `--to-block ${flags.toBlock} is past the node's last final block, ${head.block}: ` +
              'a capture holds finalized blocks only; give a smaller --to-block, or none for that block',
          );
        }
        if (fromBlock > head.block) {
          throw new RefusedError(`--from-block ${fromBlock} is past the node's last final block, ${head.block}`);
        }
      },
      onProgress(p) {
        result = p;
        progress.update(p.logs, { logs: p.logs, block: p.scannedBlock, to: last, ...blocks(p.scannedBlock, last) });
      },
      onRetry: (retry) => progress.note(describeRetry(retry)),
    });
  } catch (error) {
    closeSync(fd);
    if (written === 0) unlinkSync(flags.out);
    else progress.note(`${held()}; ${continueFrom()}`);
    throw error;
  } finally {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
  }
  closeSync(fd);
  progress.finish({
    logs: result.logs,
    blocks: result.blocks,
    'read through block': result.scannedBlock,
    file: flags.out,
  });
  if (result.scannedBlock < last) progress.note(`stopped before block ${last}: ${held()}; ${continueFrom()}`);
}
