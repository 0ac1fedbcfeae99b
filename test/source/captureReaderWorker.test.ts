// The capture reader hands each batch's frame to the fold's main thread by moving its memory, not by copying it
// (issue 24, item 3): its answer is marked movable, with the frame's own buffer, of the frame's length, to transfer.
import t from 'tap';
import { join } from 'node:path';
import { isMainThread, MessageChannel, receiveMessageOnPort } from 'node:worker_threads';
import { transferableSymbol, valueSymbol } from 'piscina';
import { openEventLog } from '../../engine/log/eventLog.js';
import nextCaptureBatch, { type CaptureReaderResult } from '../../replay/source/captureReaderWorker.js';
import { createDemoInputs } from '../fixtures/demoVenue.js';

t.test('each frame moves to the main thread whole, uncopied', async (t) => {
  t.ok(isMainThread);
  const inputs = await createDemoInputs(50);
  const logDir = join(inputs.dir, 'log');
  openEventLog({ dir: logDir }).close();
  const task = {
    session: 1,
    path: inputs.capture,
    logDir,
    configPath: inputs.config,
    afterBlock: -1,
    afterLogIndex: -1,
    batchLogs: 200,
  };
  let frames = 0;
  for (;;) {
    const answer = nextCaptureBatch(task) as unknown as Record<symbol, unknown>;
    const result = (valueSymbol in answer ? answer[valueSymbol] : answer) as CaptureReaderResult;
    t.equal(result.error, null);
    if (result.frame) {
      frames++;
      const transfer = answer[transferableSymbol] as ArrayBuffer[];
      t.equal(transfer.length, 1, 'one buffer moves');
      t.equal(transfer[0], result.frame.buffer, 'the frame buffer itself, not a copy of it');
      t.equal(result.frame.buffer.byteLength, result.frame.byteLength, 'a buffer of its own: nothing else moves');
      // Posted as Piscina posts it: the receiver gets the frame's bytes, the sender's buffer is detached.
      const { port1, port2 } = new MessageChannel();
      const bytes = Buffer.from(result.frame).toString('hex');
      port1.postMessage(result, transfer);
      const received = receiveMessageOnPort(port2)!.message as CaptureReaderResult;
      port1.close();
      t.equal(result.frame.byteLength, 0, 'moved, not copied');
      t.equal(Buffer.from(received.frame!).toString('hex'), bytes);
    } else {
      t.notOk(transferableSymbol in answer, 'a batch without a frame moves nothing');
    }
    if (result.done) break;
  }
  t.ok(frames > 1, `several frames (${frames})`);
});
