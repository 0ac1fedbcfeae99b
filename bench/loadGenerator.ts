// The API benchmark's load generator: wrk when it is installed (native, so on 2 cores it leaves the server a
// core and measures the server's latency rather than its own), else autocannon (JavaScript: it saturates first,
// and its own queueing then dominates p99). Both keep `connections` requests in flight for `seconds`.
import autocannon from 'autocannon';
import { spawn, spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface Load {
  rps: number;
  p50: number;
  p99: number;
}

export interface LoadGenerator {
  name: string;
  /**
   * Loads one URL, or with `cycle`, paths[i % n] for request i, each pass through them with a lower `limit`
   * (maxLimit, maxLimit - 1, ...) so that no answer repeats.
   */
  load(url: string, headers: Record<string, string>, cycle?: Cycle): Promise<Load>;
}

export interface Cycle {
  paths: string[];
  /** The route's largest `limit`. */
  maxLimit: number;
}

export interface LoadOptions {
  connections: number;
  seconds: number;
  scratch: string;
  /** wrk's threads (default 1), at most one a connection. */
  threads?: number;
}

export function createLoadGenerator(options: LoadOptions): LoadGenerator {
  const wrk = spawnSync('wrk', ['--version'], { encoding: 'utf8' });
  if (wrk.error) return autocannonGenerator(options);
  // "wrk debian/4.1.0-3+b2 [epoll] Copyright ..." names wrk 4.1.0.
  const version = /(\d+\.\d+\.\d+)/.exec(wrk.stdout + wrk.stderr)?.[1] ?? '';
  return wrkGenerator(options, `wrk ${version}`.trim());
}

const cyclePath = ({ paths, maxLimit }: Cycle, i: number) =>
  `${paths[i % paths.length]}&limit=${maxLimit - Math.floor(i / paths.length)}`;

function autocannonGenerator(options: { connections: number; seconds: number }): LoadGenerator {
  return {
    name: 'autocannon 9 (install wrk for figures the load generator does not bound)',
    async load(url, headers, cycle) {
      let next = 0;
      const requests = cycle
        ? [{ setupRequest: (request: object) => Object.assign(request, { path: cyclePath(cycle, next++) }) }]
        : undefined;
      const result = await autocannon({
        url,
        connections: options.connections,
        duration: options.seconds,
        headers,
        requests,
      });
      if (result.non2xx > 0 || result.errors > 0)
        throw new Error(`${url}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
      return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99 };
    },
  };
}

/** Milliseconds in one of wrk's units. */
const WRK_UNIT_MS: Record<string, number> = { us: 0.001, ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/**
 * Requests/s and the 50th and 99th latency percentiles of wrk's `--latency` report. wrk pads its units to two
 * characters, so a latency of a second or more reads `1.21s ` with a blank after it.
 */
export function parseWrkReport(report: string): Load {
  const percentile = (p: string) => {
    const [, value, unit] = new RegExp(`^\\s+${p}%\\s+([\\d.]+)(us|ms|s|m|h)\\s*$`, 'm').exec(report) ?? [];
    if (value === undefined || unit === undefined) throw new Error(`wrk's report has no ${p}% latency:\n${report}`);
    return Math.round(Number(value) * WRK_UNIT_MS[unit]! * 100) / 100;
  };
  const rps = /^Requests\/sec:\s+([\d.]+)\s*$/m.exec(report)?.[1];
  if (rps === undefined) throw new Error(`wrk's report has no requests/sec:\n${report}`);
  return { rps: Number(rps), p50: percentile('50'), p99: percentile('99') };
}

function wrkGenerator(options: LoadOptions, version: string): LoadGenerator {
  // wrk refuses fewer connections than threads.
  const threads = Math.max(1, Math.min(options.threads ?? 1, options.connections));
  return {
    name: threads === 1 ? version : `${version}, ${threads} threads`,
    async load(url, headers, cycle) {
      const args = [`-t${threads}`, `-c${options.connections}`, `-d${options.seconds}s`, '--latency'];
      for (const [name, value] of Object.entries(headers)) args.push('-H', `${name}: ${value}`);
      if (cycle) {
        const script = join(options.scratch, 'cycle.lua');
        writeFileSync(
          script,
          [
            `local paths = { ${cycle.paths.map((p) => JSON.stringify(p)).join(', ')} }`,
            'local i = 0',
            'request = function()',
            `  local path = paths[(i % #paths) + 1] .. "&limit=" .. (${cycle.maxLimit} - math.floor(i / #paths))`,
            '  i = i + 1',
            '  return wrk.format("GET", path)',
            'end',
          ].join('\n'),
        );
        args.push('-s', script);
      }
      // Run without blocking this process: a bench keeps other clients going in it meanwhile (heavy requests
      // beside the cheap ones; with a synchronous run they waited for wrk to end).
      const { status, stdout: output, stderr } = await runWrk([...args, url]);
      if (status !== 0) throw new Error(`wrk failed: ${stderr}`);
      if (/Non-2xx|Socket errors/.test(output)) throw new Error(`${url}: errors under load\n${output}`);
      return parseWrkReport(output);
    },
  };
}

/** wrk run to its end, its output gathered, this process's event loop left free meanwhile. */
function runWrk(args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('wrk', args);
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (text: string) => (stdout += text));
    child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}
