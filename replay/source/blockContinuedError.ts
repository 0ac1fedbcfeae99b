// A capture that holds more of the log's last block than the log does: an earlier capture ended inside that
// block (cut by hand, or written while the block was still being captured). Appending the rest would fold one
// block in two parts, which is not how a fresh fold sees it (a match split across the parts loses its
// counterparty), so ingest folds the block again whole (cli/commands/ingestCommand.ts).
import { InputError } from '../../engine/inputError.js';

export class BlockContinuedError extends InputError {
  constructor(
    file: string,
    line: number,
    readonly block: number,
    readonly loggedThroughLogIndex: number,
  ) {
    super(
      file,
      line,
      `block ${block} continues past log index ${loggedThroughLogIndex}, where the log's copy of it ends: an earlier capture stopped inside this block`,
    );
    this.name = 'BlockContinuedError';
  }
}
