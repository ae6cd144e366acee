// fio result files → FioReport (fio-report.schema.ts is the contract; docs/fio-format.md the reference).
export * from './fio-report.schema.ts';
export { parseFio, PARSE_FIO_ERROR_CODES } from './parse-fio.ts';
export type { ParseFioErrorCode, ParseFioOptions, ParseFioResult } from './parse-fio.ts';
export { decodeInput, DEFAULT_MAX_INPUT_BYTES } from './decode-input.ts';
export type { DecodedInput, DecodeOptions, TextEncodingName } from './decode-input.ts';
export { extractFioDocument, DEFAULT_MAX_DEPTH } from './extract-documents.ts';
export type { Extracted, ExtractOptions } from './extract-documents.ts';
export {
  validateFioDocument,
  readBins,
  MAX_BINS,
  MAX_DISTINCT_PERCENTILES,
  MAX_OPTIONS,
  MAX_PERCENTILES,
} from './fio-raw.schema.ts';
export type { Bins, FioRawDirection, FioRawDocument, FioRawJob, FioRawLatency } from './fio-raw.schema.ts';
export { normalizeJob, parseFioVersion } from './normalize-job.ts';
export type { FioVersion, JobContext, NormalizedDirection, NormalizedJob } from './normalize-job.ts';
export { aggregateDirection, aggregateJobs, aggregateReport } from './aggregate.ts';
export {
  readJobSettings,
  parseFioSize,
  parseFioRange,
  parseFioSplit,
  parseFioSeconds,
  parseFioBool,
} from './job-settings.ts';
export {
  percentileKey,
  readPercentiles,
  percentilesFromBins,
  mergeBins,
  percentileRange,
} from './percentiles.ts';
export * from './fio-report.schema.ts';
