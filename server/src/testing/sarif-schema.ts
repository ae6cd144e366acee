import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import AjvDraft04 from 'ajv-draft-04';
import addFormats from 'ajv-formats';
import { REPO_ROOT } from './run-cli.ts';

/**
 * The published SARIF 2.1.0 JSON schema (vendored in fixtures/sarif, see its README.md), compiled
 * once for the tests of every `--format sarif`. Draft-04, hence ajv-draft-04; formats (uri,
 * date-time) checked by ajv-formats. strict off: draft-04 keywords ajv's strict mode would
 * question. unicodeRegExp off: the schema's `language` pattern has a stray `]`
 * (`…-[a-zA-Z]{2}]?$`), a syntax error under the `u` flag and a literal `]` without it, as in the
 * JavaScript engines SARIF consumers use.
 */
const SCHEMA = JSON.parse(
  readFileSync(join(REPO_ROOT, 'fixtures/sarif/sarif-2.1.0-rtm.5.json'), 'utf8'),
) as object;
const ajv = new AjvDraft04({ allErrors: true, strict: false, unicodeRegExp: false });
addFormats(ajv);
const validate = ajv.compile(SCHEMA);

/** The schema's errors for `log` (an empty list: valid). */
export function sarifSchemaErrors(log: unknown): unknown[] {
  return validate(log) ? [] : (validate.errors ?? [{ message: 'invalid' }]);
}
