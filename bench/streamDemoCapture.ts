// The generator's side of bench:fold-stream: `streamDemoCapture.ts DIR FILLS` writes the demo venue into DIR, whose
// capture.ndjson is a pipe the fold reads as it is written (DemoCapture writes a pipe in order).
import { generateDemoVenue } from '../cli/demo/generateDemoVenue.js';

const [outDir, fills] = process.argv.slice(2) as [string, string];
await generateDemoVenue({ outDir, fills: Number(fills), seed: 1, protocolV2: true });
