/**
 * Which parser a dropped file goes to, from its first few KiB: fio writes JSON (possibly after
 * warnings or a normal-format report), sysbench fileio writes text with its banner and
 * "File operations:" (1.0) or "Operations performed:" (0.4). A file that is not JSON and carries
 * those marks is sysbench's; everything else goes to the fio parser, whose errors name the file.
 * (`prepare`/`cleanup` outputs count as sysbench: its parser says to upload the `run` output.)
 */

/** How many bytes of a file `looksLikeSysbench` needs (banners and headers come first). */
export const SNIFF_BYTES = 64 * 1024;

const SYSBENCH_MARKS = [
  /^\s*sysbench \d+\.\d+/m,
  /^\s*File operations:\s*$/m,
  /^\s*Operations performed:/m,
  /^\s*Creating files for the test/m,
  /^\s*Removing test files/m,
  /--test=fileio/,
];

export function looksLikeSysbench(head: string): boolean {
  const text = head.replace(/^\uFEFF/, '');
  // fio JSON (any version) starts with an object; normal+json output carries one further down.
  if (/^\s*[{[]/.test(text) || /^\{\s*$/m.test(text)) return false;
  return SYSBENCH_MARKS.some((re) => re.test(text));
}
