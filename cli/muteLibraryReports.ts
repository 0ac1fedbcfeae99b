// A failed LMDB commit (a full disk, most often) reaches the fold through the batch it awaits, which turns it
// into one line naming the directory (engine/state/stateWriteError.ts). lmdb-js also reports it on its own: on
// console.error with its stack, and by rejecting promises of the transaction's puts that no caller holds (they
// are made inside the library and never returned). In the command line both are dropped; every other report
// still reaches stderr, and every other unhandled rejection goes to `fail`.
export function muteLibraryReports(fail: (reason: unknown) => void): void {
  const report = console.error.bind(console);
  console.error = (...args: unknown[]) => {
    const first = args[0];
    if (first instanceof Error && first.stack?.includes('/node_modules/lmdb/write.js')) return;
    report(...args);
  };
  process.on('unhandledRejection', (reason) => {
    if (!(reason instanceof Error && 'commitError' in reason)) fail(reason);
  });
}
