/**
 * The largest fio result file the server stores (after decompression), and so the largest the web
 * app accepts: a file the user planned with must also pass "Save & share". 50 MiB holds the
 * largest real json+ outputs with room to spare (ordinary fio results are 10 KB–1 MB); an operator
 * may raise the server's limit with BLOCKWISE_MAX_UPLOAD_MB, never lower what the web app promises.
 */
export const MAX_UPLOAD_BYTES = 50 * 1024 * 1024;

/** Whether a file of this size can be uploaded to a server running the default limit. */
export function fitsUploadLimit(sizeBytes: number, limitBytes: number = MAX_UPLOAD_BYTES): boolean {
  return sizeBytes <= limitBytes;
}
