// A command line that is not well formed (an unknown flag, a flag without its value, a value out of range): the
// one error only the command line throws, and the one that exits 2 (cli/main.ts).

export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}
