// The Prometheus text exposition format, version 0.0.4 (what every Prometheus scrapes): each family's HELP and
// TYPE lines, then its samples, `name{label="value"} number`, one a line.

export const EXPOSITION_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';

export type MetricType = 'counter' | 'gauge' | 'histogram';

/** A label pair; the value escaped as the format asks (backslash, double quote, line feed). */
export function label(name: string, value: string): string {
  return `${name}="${value.replace(/[\\"\n]/g, (c) => (c === '\n' ? '\\n' : `\\${c}`))}"`;
}

function formatValue(value: number): string {
  if (Number.isFinite(value)) return String(value);
  return Number.isNaN(value) ? 'NaN' : value > 0 ? '+Inf' : '-Inf';
}

export class Exposition {
  private lines: string[] = [];

  family(name: string, type: MetricType, help: string): this {
    this.lines.push(`# HELP ${name} ${help.replace(/\\/g, '\\\\').replace(/\n/g, '\\n')}`, `# TYPE ${name} ${type}`);
    return this;
  }

  /** `labels`: pairs made with label(), comma separated, or '' for none. */
  sample(name: string, value: number, labels = ''): this {
    this.lines.push(`${name}${labels === '' ? '' : `{${labels}}`} ${formatValue(value)}`);
    return this;
  }

  text(): string {
    return this.lines.join('\n') + '\n';
  }
}
