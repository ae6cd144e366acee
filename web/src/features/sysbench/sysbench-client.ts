import type { SysbenchRead } from './sysbench-reader.ts';

/**
 * Reads a dropped sysbench output (a few KiB of text: no worker needed) with the parser loaded on
 * first use. Never throws: a file the browser cannot read is a value like any parse error.
 */
export async function parseSysbenchFile(file: Blob): Promise<SysbenchRead> {
  let bytes: Uint8Array;
  try {
    bytes = new Uint8Array(await file.arrayBuffer());
  } catch (error) {
    return {
      ok: false,
      error: {
        code: 'unreadable_file',
        message: `the browser could not read the file (${error instanceof Error ? error.message : String(error)})`,
      },
    };
  }
  try {
    const { readSysbench } = await import('./sysbench-reader.ts');
    return readSysbench(bytes);
  } catch (error) {
    return {
      ok: false,
      error: {
        code: 'parser_unavailable',
        message: `the sysbench reader could not be loaded or failed (${error instanceof Error ? error.message : String(error)}); reload the page and try again`,
      },
    };
  }
}
