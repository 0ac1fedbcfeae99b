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

export function createLoadGenerator(options: { connections: number; seconds: number; scratch: string }): LoadGenerator {
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

function wrkGenerator(
  options: { connections: number; seconds: number; scratch: string },
  version: string,
): LoadGenerator {
  const millis = (text: string) => {
    const [, value, unit] = /^([\d.]+)(us|ms|s)$/.exec(text) ?? [];
    if (value === undefined) throw new Error(`wrk latency ${text}`);
    return Math.round(Number(value) * (unit === 'us' ? 0.001 : unit === 's' ? 1000 : 1) * 100) / 100;
  };
  return {
    name: version,
    async load(url, headers, cycle) {
      const args = ['-t1', `-c${options.connections}`, `-d${options.seconds}s`, '--latency'];
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
      const percentile = (p: string) => millis(new RegExp(`^\\s+${p}%\\s+(\\S+)$`, 'm').exec(output)![1]!);
      return {
        rps: Number(/^Requests\/sec:\s+([\d.]+)$/m.exec(output)![1]),
        p50: percentile('50'),
        p99: percentile('99'),
      };
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
