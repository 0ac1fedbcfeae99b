// `npm run bench:gzip [-- --rounds R]`: what each zlib level costs and saves on the answers the API gzips (issue 26,
// item 2): for typical answers of the 200k venue (a wallet's ~500 open positions, a trades page, a leaderboard page,
// a busy market's traders), the gzip's bytes and the CPU per answer (process.cpuUsage over 100 compressions) at
// levels 1 to 9, medians of R rounds, levels interleaved. The ceiling: level 6, zlib's default, what answers used.
import { gzipSync } from 'node:zlib';
import { parseArgs } from 'node:util';
import { startServer } from '../cli/commands/serveCommand.js';
import { benchDemoVenue, benchSubjects } from './demoVenue.js';
import { recordBenchFigures } from './recordBenchFigures.js';

const { values } = parseArgs({ options: { rounds: { type: 'string' } } });
const rounds = Number(values.rounds ?? 5);
const LEVELS = [1, 2, 3, 4, 5, 6, 7, 8, 9];
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

/** CPU microseconds per compression of `body` at `level`, over PER_ROUND compressions. */
function cpuPerAnswer(body: Buffer, level: number): number {
  const before = process.cpuUsage();
  for (let i = 0; i < PER_ROUND; i++) gzipSync(body, { level });
  const used = process.cpuUsage(before);
  return (used.user + used.system) / PER_ROUND;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const rows: Array<[string, string, string]> = [];
for (const [name, body] of answers) {
  const cpu = new Map<number, number[]>(LEVELS.map((level) => [level, []]));
  for (let round = 0; round < rounds; round++) {
    for (const level of LEVELS) cpu.get(level)!.push(cpuPerAnswer(body, level));
  }
  const ceilingCpu = median(cpu.get(6)!);
  const ceilingBytes = gzipSync(body, { level: 6 }).length;
  for (const level of LEVELS) {
    const bytes = gzipSync(body, { level }).length;
    const micros = median(cpu.get(level)!);
    const row: [string, string, string] = [
      `${name}, ${body.length.toLocaleString('en-US')} bytes, level ${level}`,
      `${bytes.toLocaleString('en-US')} bytes, ${micros.toFixed(0)} µs CPU`,
      `${(bytes / ceilingBytes).toFixed(2)}x the bytes, ${(micros / ceilingCpu).toFixed(2)}x the CPU of level 6`,
    ];
    rows.push(row);
    console.log(row.join(' | '));
  }
}
recordBenchFigures(`gzip levels of answers, medians of ${rounds} rounds of ${PER_ROUND}`, rows);
