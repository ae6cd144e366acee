/**
 * Text both archive databases hold losslessly. PostgreSQL's text and jsonb types cannot contain
 * U+0000, and a lone UTF-16 surrogate has no UTF-8 encoding (node-postgres silently sends
 * U+FFFD, better-sqlite3 writes invalid UTF-8). Schemas refuse both at the edge, so a value the
 * server accepted can always be stored and queried again (a NUL in a series' base branch made
 * every regression check of the series fail).
 */
export function isStorableText(value: string): boolean {
  return !value.includes('\u0000') && !LONE_SURROGATE.test(value);
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export const STORABLE_TEXT_MESSAGE = 'contains U+0000 or a lone UTF-16 surrogate';
