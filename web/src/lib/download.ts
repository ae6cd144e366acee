/** Saves a Blob under a file name (an object URL on a temporary link; revoked afterwards). */
export function downloadBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  a.rel = 'noopener';
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

export function downloadText(text: string, fileName: string, mediaType: string): void {
  downloadBlob(new Blob([text], { type: `${mediaType};charset=utf-8` }), fileName);
}
