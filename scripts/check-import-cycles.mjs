// Fails when the packages' modules import each other in a cycle, type-only imports included.
// ESLint's import-x/no-cycle (eslint.config.js) already refuses value cycles; it skips `import type`,
// which cannot break module initialization but still tangles two layers (issue: records lived in
// api/contract.ts, which history/ imported while contract imported history/). TypeScript's own
// import scanner lists every specifier; relative ones and `@blockwise/shared/<subpath>` are resolved
// to files, and Tarjan's algorithm finds the strongly connected components.
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const ts = createRequire(join(root, 'shared/package.json'))('typescript');
const sharedExports = JSON.parse(readFileSync(join(root, 'shared/package.json'), 'utf8')).exports;

function listSources(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : listSources(path);
    return /\.(ts|tsx)$/.test(entry.name) ? [path] : [];
  });
}

function resolveSpecifier(from, specifier) {
  if (specifier.startsWith('.')) {
    const path = resolve(dirname(from), specifier);
    return existsSync(path) ? path : null;
  }
  if (specifier === '@blockwise/shared' || specifier.startsWith('@blockwise/shared/')) {
    const target = sharedExports['.' + specifier.slice('@blockwise/shared'.length)];
    return target ? join(root, 'shared', target) : null;
  }
  return null; // a package: not ours
}

export function findCycles(files) {
  const edges = new Map(
    files.map((file) => {
      const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
      const targets = importedFiles.map((i) => resolveSpecifier(file, i.fileName)).filter(Boolean);
      return [file, [...new Set(targets)]];
    }),
  );
  // Tarjan's strongly connected components, iterative enough for a few thousand files.
  let index = 0;
  const indexOf = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const cycles = [];
  const visit = (v) => {
    indexOf.set(v, index);
    low.set(v, index++);
    stack.push(v);
    onStack.add(v);
    for (const w of edges.get(v) ?? []) {
      if (!indexOf.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v), indexOf.get(w)));
    }
    if (low.get(v) === indexOf.get(v)) {
      const component = [];
      let w;
      do {
        w = stack.pop();
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1 || (edges.get(v) ?? []).includes(v)) cycles.push(component);
    }
  };
  for (const file of edges.keys()) if (!indexOf.has(file)) visit(file);
  return cycles;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const files = ['shared/src', 'server/src', 'web/src'].flatMap((dir) => listSources(join(root, dir)));
  const cycles = findCycles(files);
  for (const cycle of cycles) {
    console.error(`import cycle: ${cycle.map((file) => relative(root, file)).join(' → ')}`);
  }
  if (cycles.length > 0) process.exit(1);
  console.log(`check-import-cycles: no cycles in ${files.length} files (type-only imports included)`);
}
