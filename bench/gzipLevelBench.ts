// `npm run bench:gzip [-- --rounds R]`: what each compression costs and saves on the answers the API compresses
// (issue 26, item 2): for typical answers of the 200k venue (a wallet's ~500 open positions, a trades page, a
// leaderboard page, a busy market's traders), the compressed bytes and the CPU per answer (process.cpuUsage over
// 100 compressions) at gzip levels 1 to 9 and brotli qualities 0 to 4 (the answers' options, the size given ahead),
// medians of R rounds, codings interleaved. The ceiling: gzip level 6, zlib's default, what answers first used.
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { parseArgs } from 'node:util';
import { startServer } from '../cli/commands/serveCommand.js';
import { benchDemoVenue, benchSubjects } from './demoVenue.js';
import { recordBenchFigures } from './recordBenchFigures.js';

const { values } = parseArgs({ options: { rounds: { type: 'string' } } });
const rounds = Number(values.rounds ?? 5);
/** A compression of an answer, by its name in the table. */
interface Codec {
  name: string;
  compress(body: Buffer): Buffer;
}
const CODECS: Codec[] = [
  ...[1, 2, 3, 4, 5, 6, 7, 8, 9].map((level) => ({
    name: `gzip level ${level}`,
    compress: (body: Buffer) => gzipSync(body, { level }),
  })),
  ...[0, 1, 2, 3, 4].map((quality) => ({
    name: `brotli quality ${quality}`,
    compress: (body: Buffer) =>
      brotliCompressSync(body, {
        params: { [constants.BROTLI_PARAM_QUALITY]: quality, [constants.BROTLI_PARAM_SIZE_HINT]: body.length },
      }),
  })),
];
const CEILING = CODECS[5]!;
const PER_ROUND = 100;
const { data, key } = benchDemoVenue();

const { wallet, market } = await benchSubjects(data, 500);
const server = await startServer({ data, host: '127.0.0.1', port: 0 });
const answers: Array<[string, Buffer]> = [];
try {
  for (const [name, path] of [
    ['open positions (~500)', `/v1/wallets/${wallet}/positions?status=open&limit=2500`],
    ['trades page (100)', `/v1/wallets/${wallet}/trades?limit=100`],
    ['leaderboard page (100)', '/v1/leaderboard?limit=100'],
    ['market traders (1,000)', `/v1/markets/${market}/traders?limit=1000`],
  ] as const) {
    const response = await fetch(`http://127.0.0.1:${server.port}${path}`, {
      headers: { authorization: `Bearer ${key}`, 'accept-encoding': 'identity' },
    });
    answers.push([name, Buffer.from(await response.arrayBuffer())]);
  }
} finally {
  await server.closeAll();
}

/** CPU microseconds per compression of `body` by `codec`, over PER_ROUND compressions. */
function cpuPerAnswer(body: Buffer, codec: Codec): number {
  const before = process.cpuUsage();
  for (let i = 0; i < PER_ROUND; i++) codec.compress(body);
  const used = process.cpuUsage(before);
  return (used.user + used.system) / PER_ROUND;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const rows: Array<[string, string, string]> = [];
for (const [name, body] of answers) {
  const cpu = new Map<Codec, number[]>(CODECS.map((codec) => [codec, []]));
  for (let round = 0; round < rounds; round++) {
    for (const codec of CODECS) cpu.get(codec)!.push(cpuPerAnswer(body, codec));
  }
  const ceilingCpu = median(cpu.get(CEILING)!);
  const ceilingBytes = CEILING.compress(body).length;
  for (const codec of CODECS) {
    const bytes = codec.compress(body).length;
    const micros = median(cpu.get(codec)!);
    const row: [string, string, string] = [
      `${name}, ${body.length.toLocaleString('en-US')} bytes, ${codec.name}`,
      `${bytes.toLocaleString('en-US')} bytes, ${micros.toFixed(0)} µs CPU`,
      `${(bytes / ceilingBytes).toFixed(2)}x the bytes, ${(micros / ceilingCpu).toFixed(2)}x the CPU of gzip level 6`,
    ];
    rows.push(row);
    console.log(row.join(' | '));
  }
}
recordBenchFigures(`compression of answers, medians of ${rounds} rounds of ${PER_ROUND}`, rows);
