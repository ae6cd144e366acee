// Development/test entry of the fleet worker: registers tsx's loader inside the worker thread,
// then runs the TypeScript worker. The built CLI runs dist/fleet-worker.mjs instead.
import { register } from 'tsx/esm/api';

register();
await import('./fleet-worker.ts');
