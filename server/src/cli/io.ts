import { parseArgs, type ParseArgsConfig } from 'node:util';

/** Where a command writes and reads: the real process in production, buffers in tests. */
export interface CliIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  cwd: string;
  env: NodeJS.ProcessEnv;
}

/** Exit statuses shared by every command. */
export const EXIT = { ok: 0, failed: 1, usage: 2 } as const;

/** A usage error: the flag it concerns and what was expected. Commands print it and exit 2. */
export class UsageError extends Error {
  constructor(
    message: string,
    readonly flag?: string,
  ) {
    super(message);
  }
}

type Options = NonNullable<ParseArgsConfig['options']>;

/** node:util parseArgs with strict checking, turned into UsageError instead of a thrown TypeError. */
export function parseFlags<O extends Options>(argv: string[], options: O, allowPositionals = true) {
  try {
    return parseArgs({ args: argv, options, allowPositionals, strict: true });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new UsageError(message.replace(/^TypeError \[[A-Z_]+\]: /, ''));
  }
}

export function processIo(): CliIo {
  return {
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
    cwd: process.cwd(),
    env: process.env,
  };
}

/** Collects output in memory: how command tests call commands without spawning a process. */
export function memoryIo(cwd = process.cwd(), env: NodeJS.ProcessEnv = {}) {
  const out: string[] = [];
  const err: string[] = [];
  const io: CliIo = { stdout: (t) => void out.push(t), stderr: (t) => void err.push(t), cwd, env };
  return { io, stdout: () => out.join(''), stderr: () => err.join('') };
}

/** A CLI command: returns the exit status; prints through `io`; never calls process.exit itself. */
export type Command = {
  summary: string;
  usage: string;
  run: (argv: string[], io: CliIo) => Promise<number>;
};
