// A command's flags: `--name value`, `--name=value`, boolean `--name`, and `-h` for `--help`. Written here rather
// than with node:util parseArgs, whose loose mode takes the next flag as a missing value (`--port --data x`
// sets port to "--data") and whose strict mode answers in paragraphs; every mistake here is one UsageError
// line that names the flag.
import { UsageError } from './usageError.js';

export interface FlagSpec {
  /** A string flag's value, as the help shows it (FILE, N, URL); absent for a boolean flag. */
  value?: string;
  help: string;
}

export interface ParsedFlags {
  values: Record<string, string | boolean>;
  positionals: string[];
}

export function parseFlags(command: string, argv: readonly string[], flags: Record<string, FlagSpec>): ParsedFlags {
  const values: Record<string, string | boolean> = {};
  const positionals: string[] = [];
  const help = `tally ${command} --help lists them`;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '-h') {
      values.help = true;
      continue;
    }
    if (!arg.startsWith('--') || arg === '--') {
      if (arg.startsWith('-') && arg !== '-') throw new UsageError(`${command}: unknown flag ${arg} (${help})`);
      positionals.push(arg);
      continue;
    }
    const equals = arg.indexOf('=');
    const name = arg.slice(2, equals === -1 ? undefined : equals);
    const spec = flags[name];
    if (!spec) throw new UsageError(`${command}: unknown flag --${name} (${help})`);
    if (spec.value === undefined) {
      if (equals !== -1) throw new UsageError(`${command}: --${name} takes no value`);
      values[name] = true;
      continue;
    }
    let value: string | undefined;
    if (equals !== -1) value = arg.slice(equals + 1);
    else if (i + 1 < argv.length && !argv[i + 1]!.startsWith('--')) value = argv[++i];
    if (value === undefined || value === '')
      throw new UsageError(`${command}: --${name} needs a value: --${name} ${spec.value}`);
    if (name in values) throw new UsageError(`${command}: --${name} is given twice`);
    values[name] = value;
  }
  return { values, positionals };
}

/** An integer flag within [min, max]; undefined when absent. */
export function integerFlag(
  values: ParsedFlags['values'],
  name: string,
  min: number,
  max = Number.MAX_SAFE_INTEGER,
): number | undefined {
  const value = values[name];
  if (value === undefined) return undefined;
  const number = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : NaN;
  if (!(number >= min && number <= max)) {
    const range = max === Number.MAX_SAFE_INTEGER ? `${min} or more` : `from ${min} to ${max}`;
    throw new UsageError(`--${name} must be an integer ${range}, got ${String(value)}`);
  }
  return number;
}

export function stringFlag(values: ParsedFlags['values'], name: string): string | undefined {
  const value = values[name];
  return typeof value === 'string' ? value : undefined;
}

/**
 * A URL flag's value (`name` says where it came from: --rpc, TALLY_RPC_URL), refused before any I/O unless it is
 * an http:// or https:// URL, the only schemes fetch and the JSON-RPC transport speak. The value is not echoed:
 * providers put API keys in their URLs.
 */
export function httpUrl(value: string, name: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(`${name} is not a URL: give an http:// or https:// URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new UsageError(`${name} must be an http:// or https:// URL, not ${url.protocol}//`);
  }
  return value;
}
