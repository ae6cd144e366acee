import { z } from 'zod';

/**
 * Zod 4 compiles object parsers with `new Function` when it may, probing once with
 * `new Function("")`. Under the server's CSP (`script-src 'self'`, no 'unsafe-eval') that probe is
 * refused and reported as a securitypolicyviolation (docs/performance.md R9 asks for zero): turn
 * the JIT off up front. Production bundles get this from the `blockwise:zod-jitless` plugin in
 * vite.config.ts (chunk order cannot guarantee an import runs first); this import covers the dev
 * server, where Zod is pre-bundled and the plugin does not reach it.
 */
z.config({ jitless: true });
