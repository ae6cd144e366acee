/**
 * GitHub Actions workflow commands and the files a step writes (docs.github.com, "Workflow commands
 * for GitHub Actions": "Setting an error message", "Adding a job summary", "Setting an output
 * parameter"), built as text: the CLI prints the annotations on stdout and appends the summary and
 * outputs to the files named by GITHUB_STEP_SUMMARY and GITHUB_OUTPUT. Pure: no file is touched here.
 */

export type AnnotationLevel = 'error' | 'warning' | 'notice';

export type Annotation = {
  level: AnnotationLevel;
  message: string;
  /** Relative to the workspace (the repository root), as the runner resolves it. */
  file?: string;
  /** 1-based; only with file. */
  line?: number;
  title?: string;
};

/**
 * A command's data (the message after `::`): the runner decodes `%25`, `%0D` and `%0A`, so `%`
 * goes first and a line break in a message can never end the command and start another line the
 * runner reads (`\n::add-mask::…`). This is the escaping the runner and @actions/core's
 * `escapeData` agree on.
 */
export function escapeCommandData(text: string): string {
  return text.replaceAll('%', '%25').replaceAll('\r', '%0D').replaceAll('\n', '%0A');
}

/** A command's property value (`file=…,line=…`): as data, and `:` and `,` end a value, so they are encoded too. */
export function escapeCommandProperty(text: string): string {
  return escapeCommandData(text).replaceAll(':', '%3A').replaceAll(',', '%2C');
}

/** One annotation as the line the runner reads: `::error file=k8s/sc.yaml,line=17,title=…::message`. */
export function formatAnnotation(a: Annotation): string {
  const properties = [
    ...(a.file !== undefined ? [`file=${escapeCommandProperty(a.file)}`] : []),
    ...(a.file !== undefined && a.line !== undefined ? [`line=${a.line}`] : []),
    ...(a.title !== undefined ? [`title=${escapeCommandProperty(a.title)}`] : []),
  ];
  return `::${a.level}${properties.length > 0 ? ` ${properties.join(',')}` : ''}::${escapeCommandData(a.message)}\n`;
}

/**
 * Step outputs as the GITHUB_OUTPUT file takes them: `name<<DELIMITER`, the value, the delimiter
 * alone on a line. The delimiter must not occur in any value (a value holding it could end the
 * block early and set another output), so the caller passes a random one and this refuses a clash.
 */
export function formatOutputs(outputs: Readonly<Record<string, string>>, delimiter: string): string {
  return Object.entries(outputs)
    .map(([name, value]) => {
      if (name.includes(delimiter) || value.includes(delimiter))
        throw new Error(`output ${name}: the value holds the delimiter`);
      return `${name}<<${delimiter}\n${value}\n${delimiter}\n`;
    })
    .join('');
}

/** What a `--format github` run hands the runner. */
export type GithubReport = {
  annotations: readonly Annotation[];
  /** Markdown for the job summary. */
  summary: string;
  outputs: Readonly<Record<string, string>>;
};
