import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { findCycles } from './check-import-cycles.mjs';

const dir = mkdtempSync(join(tmpdir(), 'cycles-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function files(sources) {
  return Object.entries(sources).map(([name, text]) => {
    const path = join(dir, name);
    writeFileSync(path, text);
    return path;
  });
}

describe('findCycles', () => {
  it.each([
    [
      'a type-only cycle (the records/contract case)',
      {
        'a.ts': "import type { B } from './b.ts';\nexport type A = B;",
        'b.ts': "import type { A } from './a.ts';\nexport type B = { a?: A };",
      },
      1,
    ],
    [
      'a value cycle through three modules',
      {
        'c.ts': "import { d } from './d.ts';\nexport const c = d;",
        'd.ts': "import { e } from './e.ts';\nexport const d = e;",
        'e.ts': "export { c } from './c.ts';\nexport const e = 1;",
      },
      1,
    ],
    [
      'a module importing itself',
      { 'f.ts': "import { f as g } from './f.ts';\nexport const f = 1;\nvoid g;" },
      1,
    ],
    [
      'a layered graph (shared below, callers above)',
      {
        'low.ts': 'export const low = 1;',
        'mid.ts': "import { low } from './low.ts';\nexport const mid = low;",
        'top.ts':
          "import { low } from './low.ts';\nimport { mid } from './mid.ts';\nexport const top = low + mid;",
      },
      0,
    ],
  ])('%s', (_name, sources, cycles) => {
    expect(findCycles(files(sources))).toHaveLength(cycles);
  });
});
