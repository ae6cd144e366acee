import type { ParseFioResult } from '@blockwise/shared/fio';
import type { ParseRequest, ParseResponse } from './parse.worker.ts';

/**
 * Parses a dropped or picked file with `parseFio`, in a Web Worker (one, shared, created on first
 * use) so big json+ files never block the page. Without Worker support (tests, very old
 * browsers) it parses on the main thread, loading the parser lazily.
 */

let worker: Worker | null = null;
const waiting = new Map<string, (result: ParseFioResult) => void>();
let counter = 0;

function getWorker(): Worker | null {
  if (typeof Worker === 'undefined') return null;
  if (worker) return worker;
  try {
    worker = new Worker(new URL('./parse.worker.ts', import.meta.url), { type: 'module' });
  } catch {
    return null;
  }
  worker.onmessage = (event: MessageEvent<ParseResponse>) => {
    const resolve = waiting.get(event.data.id);
    waiting.delete(event.data.id);
    resolve?.(event.data.result);
  };
  worker.onerror = (event) => {
    event.preventDefault();
    const message = event.message || 'the parser worker stopped';
    for (const [id, resolve] of waiting) {
      resolve({ ok: false, error: { code: 'parser_crashed', message } });
      waiting.delete(id);
    }
    worker?.terminate();
    worker = null;
  };
  return worker;
}

async function parseOnMainThread(bytes: Uint8Array): Promise<ParseFioResult> {
  const { parseFio } = await import('@blockwise/shared/fio');
  return parseFio(bytes);
}

export async function parseFioFile(file: Blob): Promise<ParseFioResult> {
  let buffer: ArrayBuffer;
  try {
    buffer = await file.arrayBuffer();
  } catch (error) {
    return {
      ok: false,
      error: {
        code: 'unreadable_file',
        message: `the browser could not read the file (${error instanceof Error ? error.message : String(error)})`,
      },
    };
  }
  const w = getWorker();
  if (!w) return parseOnMainThread(new Uint8Array(buffer));
  counter += 1;
  const id = `p${counter}`;
  return new Promise((resolve) => {
    waiting.set(id, resolve);
    w.postMessage({ id, bytes: buffer } satisfies ParseRequest, [buffer]);
  });
}
