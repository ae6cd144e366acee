// Development/test entry of the parse worker: registers tsx's loader inside the worker thread,
// then runs the TypeScript worker. Production runs the bundled dist/parse-worker.mjs instead.
import { register } from 'tsx/esm/api';

register();
await import('./parse-worker.ts');
