import { expect, type Locator } from '@playwright/test';

/**
 * The text of a part of the page as a reader sees it once scrolled there, whitespace collapsed.
 * Page regions off screen are not laid out (`content-visibility: auto`, which keeps a what-if
 * step cheap — bench P16), and `innerText` reads nothing from a part that is not laid out: the
 * part is brought into view and read once the browser has laid it out.
 */
export async function renderedText(part: Locator): Promise<string> {
  await part.scrollIntoViewIfNeeded();
  let text = '';
  await expect.poll(async () => (text = await part.innerText()).trim()).not.toBe('');
  return text.replace(/\s+/g, ' ').trim();
}
