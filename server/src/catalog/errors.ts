/**
 * An input of `catalog update` or `--catalog` that cannot be used: the file or URL, the field
 * (a JSON path) when one is to blame, and what is wrong. The CLI prints it and exits 1; the
 * previous catalog is left as it was.
 */
export class CatalogInputError extends Error {
  constructor(
    readonly file: string,
    readonly field: string | null,
    readonly reason: string,
  ) {
    super(`${file}${field ? `: ${field}` : ''}: ${reason}`);
    this.name = 'CatalogInputError';
  }
}
