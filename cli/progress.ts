// Progress of long work: a line rewritten in place on a terminal, a plain line every few seconds otherwise.

export interface Progress {
  update(done: number, fields: Record<string, string | number>): void;
  finish(fields: Record<string, string | number>): void;
  /** A line of its own (a retry, a notice), clearing the line rewritten in place first. */
  note(message: string): void;
}

export function createProgress(label: string, total?: number): Progress {
  const tty = process.stderr.isTTY === true;
  const started = Date.now();
  let lastPrint = 0;
  const line = (done: number, fields: Record<string, string | number>) => {
    const seconds = (Date.now() - started) / 1000;
    const rate = seconds > 0 ? Math.round(done / seconds) : 0;
    const parts = Object.entries(fields).map(([k, v]) => `${k} ${v}`);
    parts.push(`${rate.toLocaleString('en-US')}/s`);
    if (total && done > 0 && done < total) parts.push(`eta ${Math.round(((total - done) / done) * seconds)} s`);
    return `${label}: ${parts.join(', ')}`;
  };
  return {
    update(done, fields) {
      const now = Date.now();
      if (now - lastPrint < (tty ? 200 : 5000)) return;
      lastPrint = now;
      if (tty) process.stderr.write('\r\x1b[K' + line(done, fields));
      else process.stderr.write(line(done, fields) + '\n');
    },
    finish(fields) {
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      const parts = Object.entries(fields).map(([k, v]) => `${k} ${v}`);
      process.stderr.write((tty ? '\r\x1b[K' : '') + `${label}: ${parts.join(', ')} in ${seconds} s\n`);
    },
    note(message) {
      process.stderr.write((tty ? '\r\x1b[K' : '') + `${label}: ${message}\n`);
    },
  };
}
