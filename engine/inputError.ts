// Bad input: a typed error that names where it is, so the command line can print "file:line: message".

export class InputError extends Error {
  constructor(
    readonly file: string,
    readonly line: number,
    readonly detail: string,
  ) {
    super(line > 0 ? `${file}:${line}: ${detail}` : `${file}: ${detail}`);
    this.name = 'InputError';
  }
}
