import { createRequire } from 'node:module';
import { expect, type Page } from '@playwright/test';
import type { AxeResults, Result } from 'axe-core';

/**
 * axe-core (4.14, from e2e/node_modules) injected into the page and run on the whole document.
 * addScriptTag inlines the file, which the app's CSP (script-src 'self') rightly refuses, so the
 * contexts that scan set `bypassCSP: true`; the security spec checks the CSP itself.
 */
const AXE_PATH = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

declare global {
  interface Window {
    axe?: { run: (context: Document, options: object) => Promise<AxeResults> };
  }
}

function describe(v: Result): string {
  const nodes = v.nodes
    .slice(0, 5)
    .map((n) => `    ${n.target.join(' ')}\n      ${(n.failureSummary ?? '').replace(/\n/g, '\n      ')}`);
  return `${v.impact} ${v.id}: ${v.help} (${v.nodes.length} nodes) ${v.helpUrl}\n${nodes.join('\n')}`;
}

/** Runs axe on the page as it is now; fails on serious or critical violations, listing them. */
export async function expectNoSeriousA11yViolations(page: Page, what: string): Promise<AxeResults> {
  if (!(await page.evaluate(() => typeof window.axe === 'object')))
    await page.addScriptTag({ path: AXE_PATH });
  // axe's default rule set: WCAG 2.0–2.2 A/AA plus best practices (experimental rules off).
  const results = await page.evaluate(() => window.axe!.run(document, { resultTypes: ['violations'] }));
  const blocking = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(blocking.map(describe), `${what}: serious or critical axe violations`).toEqual([]);
  return results;
}
