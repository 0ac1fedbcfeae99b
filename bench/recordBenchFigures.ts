// Rewrites one benchmark's section of the figures table in bench/README.md (machine, date, medians, ratios).
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';

const README = new URL('./README.md', import.meta.url);
const HEADER = '<!-- figures: rewritten by the benchmarks -->';

export function recordBenchFigures(name: string, rows: Array<[metric: string, value: string, ratio: string]>): void {
  const text = existsSync(README) ? readFileSync(README, 'utf8') : `# Benchmarks\n\n${HEADER}\n`;
  const [intro, figures = ''] = text.split(HEADER);
  const sections = new Map<string, string>();
  for (const block of figures
    .split(/\n(?=### )/)
    .map((b) => b.trim())
    .filter((b) => b.startsWith('### '))) {
    sections.set(block.split('\n')[0]!.slice(4), block);
  }
  const machine = `${cpus().length} cores (${cpus()[0]?.model.trim() ?? 'unknown'}), ${Math.round(totalmem() / 1024 ** 3)} GiB, Node ${process.version}`;
  const table = ['| metric | value | ratio |', '| --- | --- | --- |', ...rows.map((r) => `| ${r.join(' | ')} |`)].join(
    '\n',
  );
  sections.set(name, `### ${name}\n\n${new Date().toISOString().slice(0, 10)}, ${machine}\n\n${table}`);
  writeFileSync(README, `${intro!.trimEnd()}\n\n${HEADER}\n\n${[...sections.values()].join('\n\n')}\n`);
}
