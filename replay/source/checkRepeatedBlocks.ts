// Before a capture is ingested: every block it repeats (at or below the log's last block) must carry the hash the
// log holds for it, however old the block, else the ingest stops naming it with nothing appended (replay/README.md,
// Inputs). Each repeated block's hash is found by a keyed lookup (the state's block record), so the check costs a
// read of the capture's repeated lines and one lookup per repeated block, whatever the size of the log. It stops at
// the first line past the log's last block; a line wrong in any other way is left to the capture reader, which
// reports it in the file's order.
import { InputError } from '../../engine/inputError.js';
import { hexField } from '../decode/rawLog.js';
import { parseCaptureLine, type CaptureLine } from './parseCaptureLine.js';
import { lineText, readLines } from './readLines.js';
import { createCaptureLineScanner } from './scanCaptureLine.js';

export function checkRepeatedBlocks(options: {
  capturePath: string;
  /** The log's last block: lines at or below it are already in the log. */
  afterBlock: number;
  /** The hash the log holds for a block, undefined for a block it does not hold. */
  loggedHash: (block: number) => string | undefined;
}): void {
  const { capturePath, afterBlock } = options;
  if (afterBlock < 0) return;
  const scan = createCaptureLineScanner();
  let lastBlock = -1;
  for (const text of readLines(capturePath)) {
    let line: CaptureLine | null = scan(text.buffer, text.start, text.end);
    if (line === null) {
      const whole = lineText(text);
      if (whole.trim() === '') continue;
      try {
        line = parseCaptureLine(whole);
      } catch {
        return;
      }
    }
    const { block, raw } = line;
    if (block > afterBlock || block < lastBlock) return;
    // A block's later lines must carry its first line's hash: the capture reader checks that.
    if (block === lastBlock) continue;
    lastBlock = block;
    const logged = options.loggedHash(block);
    const hash = hexField(raw, raw.blockHashAt, 64);
    if (logged !== undefined && logged !== hash) {
      throw new InputError(
        capturePath,
        text.number,
        `block ${block} has hash ${hash} but the log holds ${logged}: the capture is of ` +
          `another chain, or the chain reorganised below the log's last block; tally rewind --to-block ${block - 1} drops the log's copy`,
      );
    }
  }
}
