// fio result files → FioReport (fio-report.schema.ts is the contract; docs/fio-format.md the reference).
export { DIRECTIONS, FioReportSchema } from './fio-report.schema.ts';
export type { DirectionStats, DirectionTotals, FioReport } from './fio-report.schema.ts';
export { parseFio } from './parse-fio.ts';
export type { ParseFioResult } from './parse-fio.ts';
export { DEFAULT_MAX_INPUT_BYTES } from './decode-input.ts';
export { extractFioDocument } from './extract-documents.ts';
