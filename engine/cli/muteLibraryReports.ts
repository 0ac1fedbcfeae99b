// lmdb-js reports a failed commit on console.error itself, with its stack, before it rejects the commit; the
// fold turns that rejection into one line naming the directory (engine/state/stateWriteError.ts). So in the
// command line the library's own report is dropped; everything else still reaches stderr.
export function muteLibraryReports(): void {
  const report = console.error.bind(console);
  console.error = (...args: unknown[]) => {
    const first = args[0];
    if (first instanceof Error && first.stack?.includes('/node_modules/lmdb/write.js')) return;
    report(...args);
  };
}
