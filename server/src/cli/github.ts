import { randomUUID } from 'node:crypto';
import { appendFile } from 'node:fs/promises';
import { formatAnnotation, formatOutputs, type GithubReport } from '@blockwise/shared/github-commands';
import type { CliIo } from './io.ts';

/**
 * `--format github`: the annotations on stdout (the runner reads workflow commands from the step's
 * log), the summary appended to the file GITHUB_STEP_SUMMARY names and the outputs to the one
 * GITHUB_OUTPUT names. Outside a runner (neither is set) the summary goes to stderr and the
 * outputs are not written, so the command still runs anywhere.
 */
export async function writeGithubReport(report: GithubReport, io: CliIo): Promise<void> {
  io.stdout(report.annotations.map(formatAnnotation).join(''));
  const summaryFile = io.env.GITHUB_STEP_SUMMARY;
  if (summaryFile) await appendFile(summaryFile, report.summary);
  else io.stderr(report.summary);
  const outputFile = io.env.GITHUB_OUTPUT;
  // A random delimiter, as @actions/core uses: no value can end its block early.
  if (outputFile) await appendFile(outputFile, formatOutputs(report.outputs, `ghadelimiter_${randomUUID()}`));
}
