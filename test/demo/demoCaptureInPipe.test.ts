// The demo written into a pipe (bench:fold-stream folds a capture larger than the disk as it is generated): the
// bytes read from the pipe are the bytes of the same demo written to a file, and the ingest does not read a pipe's
// end before its lines (captureLastBlock, which would take lines from the fold's reader).
import t from 'tap';
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateDemoVenue } from '../../cli/demo/generateDemoVenue.js';
import { captureLastBlock } from '../../replay/source/captureLastBlock.js';

const FILLS = 3_000;

t.test('a demo capture written into a pipe holds the bytes of the same demo written to a file', async (t) => {
  const root = mkdtempSync(join(tmpdir(), 'tally-demo-pipe-'));
  t.teardown(() => rmSync(root, { recursive: true, force: true }));
  const [fileDir, pipeDir] = [join(root, 'file'), join(root, 'pipe')];
  mkdirSync(pipeDir);
  const pipe = join(pipeDir, 'capture.ndjson');
  t.equal(spawnSync('mkfifo', [pipe]).status, 0, 'mkfifo made the pipe');

  const fileSummary = await generateDemoVenue({ outDir: fileDir, fills: FILLS, seed: 3, protocolV2: true });
  t.equal(captureLastBlock(pipe), null, 'a pipe has no end to read first');
  // The reader is a process of its own: the generator's open of the pipe waits for a reader, on this thread.
  const reader = spawn('sha256sum', [pipe], { stdio: ['ignore', 'pipe', 'inherit'] });
  let output = '';
  reader.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const read = new Promise<number | null>((resolve) => reader.on('exit', resolve));
  const pipeSummary = await generateDemoVenue({ outDir: pipeDir, fills: FILLS, seed: 3, protocolV2: true });
  t.equal(await read, 0, 'the reader read the pipe to its end');
  const fileBytes = readFileSync(join(fileDir, 'capture.ndjson'));
  t.ok(fileBytes.length > 8 << 20, "the capture spans more than one of the writer's 8 MB buffers");
  t.equal(output.split(' ')[0], createHash('sha256').update(fileBytes).digest('hex'), 'same bytes');
  t.same(pipeSummary, fileSummary, 'same summary');
  t.equal(captureLastBlock(join(fileDir, 'capture.ndjson')), fileSummary.lastBlock, "a file's last block is read");
});
