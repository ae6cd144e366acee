// Assembles the npm package users install (packages/blockwise: docs/install.md) from what
// `pnpm build` made: the server's bundles (server/dist/*.mjs: the CLI, its parse, writer and fleet
// workers) and the built web app (web/dist), which `blockwise serve` finds beside the CLI
// (server/src/config.ts findWebDist walks up from dist/ to web/dist). Source maps stay out: they
// are twice the code's size (bench P21 budgets the tarball). Run by `pnpm build`, after both builds.
//
// `node scripts/build-package.mjs` checks first that the package's version and its `pg` are the
// server's (one version of each: the bundle reports the server's version, and loads `pg` at run
// time from the package's dependencies), and exits 1 naming what differs.
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
export const packageDir = join(root, 'packages', 'blockwise');
const serverDist = join(root, 'server', 'dist');
const webDist = join(root, 'web', 'dist');

const readJson = (path) => JSON.parse(readFileSync(path, 'utf8'));

/** What differs between the package's manifest and the server's: empty when they agree. */
export function manifestMismatches(pkg, server) {
  const problems = [];
  if (pkg.version !== server.version)
    problems.push(
      `version is ${pkg.version}, the server's is ${server.version} (the CLI reports the server's)`,
    );
  for (const [name, range] of Object.entries(pkg.dependencies ?? {})) {
    if (server.dependencies?.[name] !== range)
      problems.push(
        `dependency ${name} is ${range}, the server's is ${server.dependencies?.[name] ?? 'absent'}`,
      );
  }
  const peer = pkg.peerDependencies?.['better-sqlite3'];
  const used = server.dependencies?.['better-sqlite3'];
  if (peer !== undefined && peer !== `^${used}`)
    problems.push(
      `peer better-sqlite3 is ${peer}, expected ^${used} (the version the server is tested with)`,
    );
  return problems;
}

function assemble() {
  const missing = [join(serverDist, 'blockwise.mjs'), join(webDist, 'index.html')].filter(
    (p) => !existsSync(p),
  );
  if (missing.length > 0) {
    console.error(`✗ ${missing.join(', ')} missing: run \`pnpm build\` first`);
    process.exit(1);
  }
  const problems = manifestMismatches(
    readJson(join(packageDir, 'package.json')),
    readJson(join(root, 'server', 'package.json')),
  );
  if (problems.length > 0) {
    console.error(`✗ packages/blockwise/package.json: ${problems.join('; ')}`);
    process.exit(1);
  }
  const outDist = join(packageDir, 'dist');
  const outWeb = join(packageDir, 'web', 'dist');
  rmSync(outDist, { recursive: true, force: true });
  rmSync(join(packageDir, 'web'), { recursive: true, force: true });
  mkdirSync(outDist, { recursive: true });
  for (const name of readdirSync(serverDist).filter((n) => n.endsWith('.mjs'))) {
    // The map is not shipped: drop the comment that points at it.
    const code = readFileSync(join(serverDist, name), 'utf8').replace(
      /\n\/\/# sourceMappingURL=\S+\s*$/,
      '\n',
    );
    writeFileSync(join(outDist, name), code, { mode: name === 'blockwise.mjs' ? 0o755 : 0o644 });
  }
  cpSync(webDist, outWeb, { recursive: true });
  console.log('assembled packages/blockwise (dist/*.mjs + web/dist): `npm pack` there makes the tarball');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) assemble();
