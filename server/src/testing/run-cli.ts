import { memoryIo } from '../cli/io.ts';
import { main } from '../cli/main.ts';

/** The repository root: CLI tests name fixtures relative to it (`fixtures/fio/…`). */
export const REPO_ROOT = new URL('../../../', import.meta.url).pathname;

export type CliResult = { code: number; stdout: string; stderr: string };

/** Runs `blockwise ARGS` in-process with output captured (no child process). */
export async function runCli(
  args: string[],
  { cwd = REPO_ROOT, env = {} }: { cwd?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<CliResult> {
  const m = memoryIo(cwd, env);
  const code = await main(args, m.io);
  return { code, stdout: m.stdout(), stderr: m.stderr() };
}
