// What a command refuses for a reason the user can fix (a missing flag, a directory that holds no venue, a key
// that was never issued): printed as one `tally:` line, never as a stack. Broken invariants stay plain errors,
// whose stack the command line prints (cli/main.ts).

export class CommandError extends Error {
  /** The process's exit code: 1 for a refusal, 2 for a command line that is not well formed. */
  readonly exitCode: number = 1;

  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'CommandError';
  }
}

/** A command line that is not well formed: an unknown flag, a flag without its value, a value out of range. */
export class UsageError extends CommandError {
  override readonly exitCode = 2;

  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}
