// Reads a whole capture without folding anything: throws the InputError (FILE:LINE: reason) of its first bad
// line. An ingest that must undo something before it folds (a block taken again whole) runs it first, so that
// a capture it then refuses has changed nothing.
import { loadVenueAddresses } from '../../engine/chain/loadVenueAddresses.js';
import { createLogDecoder } from '../decode/decodeLog.js';
import { readCaptureBatches } from '../source/readCaptureBatches.js';

export function checkCaptureLines(options: { capturePath: string; configPath: string }): void {
  const decoder = createLogDecoder(loadVenueAddresses(options.configPath));
  const batches = readCaptureBatches({ path: options.capturePath, decoder, afterBlock: -1 });
  for (let batch = batches.next(); !batch.done; batch = batches.next());
}
