/**
 * Client-supplied file names are display metadata: they are cut to a length and made storable
 * rather than refused. Both databases refuse U+0000 and lone UTF-16 surrogates in text
 * (store/run-store.ts `isStorableText`), and a plain `.slice(0, n)` can cut a surrogate pair in
 * half — either reached the store as a StoreInputError, i.e. a 500 (found by the R3 fuzz test:
 * `?filename=` / a multipart file name with `%00`, or an emoji at the cut).
 */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

export function storableName(name: string, maxLength: number): string {
  let cut = name.slice(0, maxLength);
  // Do not end on the first half of a pair that the cut separated.
  if (/[\uD800-\uDBFF]$/.test(cut) && name.length > maxLength) cut = cut.slice(0, -1);
  return cut.replaceAll('\u0000', '\uFFFD').replace(LONE_SURROGATE, '\uFFFD');
}
