#!/usr/bin/env node
// How many names each `@blockwise/shared` subpath exports (shared/package.json `exports`), and in
// total, against a ceiling recorded below: the public surface may only shrink. Each entry lists its
// names (`export { a, type B } from './x.ts'`, no `export *`), and knip reports entry exports no
// package uses, so a name leaves the ceiling's count when its last user outside shared goes.
// Lower CEILING when the count drops.
//
//   node scripts/count-exports.mjs [--json]
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

/** Exported names across every subpath; raise it only with a reason in the commit message. */
const CEILING = 436;

const sharedDir = join(dirname(fileURLToPath(import.meta.url)), '..', 'shared');
const { exports } = JSON.parse(readFileSync(join(sharedDir, 'package.json'), 'utf8'));
const entries = Object.entries(exports).filter(([, file]) => file.endsWith('.ts'));
const configPath = join(sharedDir, 'tsconfig.json');
const config = ts.parseJsonConfigFileContent(
  ts.readConfigFile(configPath, ts.sys.readFile).config,
  ts.sys,
  sharedDir,
);
const program = ts.createProgram(
  entries.map(([, file]) => join(sharedDir, file)),
  config.options,
);
const checker = program.getTypeChecker();

const counts = entries.map(([subpath, file]) => {
  const source = program.getSourceFile(join(sharedDir, file));
  const module = source && checker.getSymbolAtLocation(source);
  if (!module) throw new Error(`${subpath}: ${file} is not a module`);
  const stars = source.statements.filter(
    (s) => ts.isExportDeclaration(s) && !s.exportClause && s.moduleSpecifier,
  );
  return { subpath, names: checker.getExportsOfModule(module).length, exportStar: stars.length };
});
const total = counts.reduce((sum, c) => sum + c.names, 0);

if (process.argv.includes('--json'))
  console.log(JSON.stringify({ total, ceiling: CEILING, counts }, null, 2));
else {
  for (const c of counts) console.log(`${c.subpath.padEnd(20)} ${String(c.names).padStart(4)}`);
  console.log(`${'total'.padEnd(20)} ${String(total).padStart(4)}  (ceiling ${CEILING})`);
}
const failures = [
  ...counts.filter((c) => c.exportStar > 0).map((c) => `${c.subpath} uses \`export *\`: list its names`),
  ...(total > CEILING ? [`${total} exported names, above the ceiling of ${CEILING}`] : []),
];
for (const f of failures) console.error(`count-exports: ${f}`);
process.exitCode = failures.length ? 1 : 0;
