// An answer a route has already written as JSON bytes (the fills feed's rows, written by jsonBytes.ts): sent as it
// is, never through JSON.stringify.
export class JsonBody {
  constructor(readonly json: Buffer) {}
}
