import type { Command } from './io.ts';

/**
 * The command table. Commands load lazily so `blockwise analyze` or `upload` never pulls in the
 * HTTP server or the native SQLite module.
 */
export const commands: Record<string, () => Promise<Command>> = {
  analyze: async () => (await import('./analyze.ts')).analyzeCommand,
  catalog: async () => (await import('./catalog.ts')).catalogCommand,
  compare: async () => (await import('./compare.ts')).compareCommand,
  cost: async () => (await import('./cost.ts')).costCommand,
  plan: async () => (await import('./plan.ts')).planCommand,
  serve: async () => (await import('./serve.ts')).serveCommand,
  upload: async () => (await import('./upload.ts')).uploadCommand,
  token: async () => (await import('./token.ts')).tokenCommand,
  'fio-job': async () => (await import('./fio-job.ts')).fioJobCommand,
  metrics: async () => (await import('./metrics.ts')).metricsCommand,
  sysbench: async () => (await import('./sysbench.ts')).sysbenchCommand,
  fleet: async () => (await import('./fleet.ts')).fleetCommand,
  'check-iac': async () => (await import('./check-iac.ts')).checkIacCommand,
};
