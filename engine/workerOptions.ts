/**
 * Where a worker's module is and how its thread starts. Run from the TypeScript sources (no build yet), the
 * worker needs tsx's loader too, resolved from this package rather than from the user's working directory.
 */
export function workerOptions(modulePath: string, callerUrl: string): { filename: string; execArgv: string[] } {
  const typescript = callerUrl.endsWith('.ts');
  const filename = new URL(modulePath + (typescript ? '.ts' : '.js'), callerUrl).href;
  const loaded = process.execArgv.some((arg) => arg.includes('tsx'));
  return {
    filename,
    execArgv: typescript && !loaded ? [...process.execArgv, '--import', import.meta.resolve('tsx')] : process.execArgv,
  };
}
