import { escapeText } from '@blockwise/shared/escape-text';
import { APP_VERSION } from '../config.ts';
import { commands } from './commands.ts';
import { EXIT, UsageError, processIo, type CliIo } from './io.ts';

async function usage(): Promise<string> {
  const rows = await Promise.all(
    Object.entries(commands).map(async ([name, load]) => `  ${name.padEnd(10)} ${(await load()).summary}`),
  );
  return [
    'blockwise — what storage to buy on AWS, and why',
    '',
    'Usage: blockwise <command> [options]',
    '',
    'Commands:',
    ...rows,
    '',
    'Run `blockwise <command> --help` for the options of one command.',
    '',
  ].join('\n');
}

export async function main(argv: string[], io: CliIo): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    io.stdout(await usage());
    return name === undefined ? EXIT.usage : EXIT.ok;
  }
  if (name === '--version') {
    io.stdout(`blockwise ${APP_VERSION}\n`);
    return EXIT.ok;
  }
  const load = commands[name];
  if (!load) {
    io.stderr(`blockwise: unknown command "${escapeText(name)}"\n\n${await usage()}`);
    return EXIT.usage;
  }
  const command = await load();
  if (rest.includes('--help') || rest.includes('-h')) {
    io.stdout(`${command.summary}\n\n${command.usage}\n`);
    return EXIT.ok;
  }
  try {
    return await command.run(rest, io);
  } catch (error) {
    if (error instanceof UsageError) {
      // Messages quote the flags' values: each line escaped, so a value cannot print an escape
      // sequence or a line the CI runner reads as a command.
      const message = error.message.split('\n').map(escapeText).join('\n');
      io.stderr(`blockwise ${name}: ${message}\nRun \`blockwise ${name} --help\` for the options.\n`);
      return EXIT.usage;
    }
    // A bug, not bad input: say so plainly, with the stack for the report.
    io.stderr(
      `blockwise ${name}: internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    return EXIT.failed;
  }
}

const invokedDirectly =
  process.argv[1] !== undefined && /(?:main\.ts|blockwise(?:\.mjs)?)$/.test(process.argv[1]);
if (invokedDirectly) {
  main(process.argv.slice(2), processIo()).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      process.stderr.write(`blockwise: ${String(error)}\n`);
      process.exitCode = EXIT.failed;
    },
  );
}
