// The `tally` command line (README "Commands"). Every command takes --data DIR (default data/venue, or
// TALLY_DATA). The one place errors become exit codes (engine/refusedError.ts has the tree): 0 done; 1 bad input,
// a refusal or the surroundings, one `tally:` line naming the file and line, the flag or the directory; 2 a
// command line that is not well formed; 3 `verify` found the state behind its log; 70 a bug (a broken invariant,
// or any error of no known kind), with its stack.
import { UsageError } from './usageError.js';
import { exitCodeOf } from './exitCodeOf.js';
import { checkPositionals, commandHelp, COMMANDS, globalUsage } from './commandTable.js';
import { describeSystemError } from './describeSystemError.js';
import { muteLibraryReports } from './muteLibraryReports.js';
import { parseFlags } from './parseFlags.js';

const EXIT_BUG = 70;

async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined) {
    process.stderr.write(globalUsage() + '\n');
    return 2;
  }
  if (name === '--help' || name === '-h' || name === 'help') {
    const spec = rest[0] === undefined ? undefined : COMMANDS[rest[0]];
    console.log(spec ? commandHelp(rest[0]!, spec) : globalUsage());
    return 0;
  }
  const spec = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  if (!spec)
    throw new UsageError(
      `unknown command ${name}; the commands are ${Object.keys(COMMANDS).join(', ')} (tally --help)`,
    );
  const flags = parseFlags(name, rest, { ...spec.flags, help: { help: 'this help' } });
  if (flags.values.help) {
    console.log(commandHelp(name, spec));
    return 0;
  }
  checkPositionals(name, spec, flags);
  return spec.run(flags);
}

/** Ends the process for an error: one line for what the user can fix, the stack for a bug. */
function fail(error: unknown): never {
  const code = exitCodeOf(error);
  if (code !== null) {
    process.stderr.write(`tally: ${(error as Error).message}\n`);
    process.exit(code);
  }
  const described = describeSystemError(error);
  if (described !== null) {
    process.stderr.write(`tally: ${described}\n`);
    process.exit(1);
  }
  process.stderr.write(`tally: internal error (a bug; please report it with this output):\n`);
  console.error(error);
  process.exit(EXIT_BUG);
}

muteLibraryReports(fail);
main(process.argv.slice(2)).then((code) => process.exit(code), fail);
