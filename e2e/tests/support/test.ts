import { test as base, expect, type Page } from '@playwright/test';

/**
 * Every journey runs with a guard on its pages: a dialog (alert/confirm/prompt), an uncaught
 * exception, a console error, or a Content-Security-Policy violation fails the test. CSP violations
 * are recorded by a listener installed before any page script (addInitScript): on `window` (for a
 * look from the page) and through a binding, so a navigation never loses one.
 */

export type Guarded = {
  dialogs: string[];
  consoleErrors: string[];
  pageErrors: string[];
  cspViolations: string[];
};

declare global {
  interface Window {
    __bwCspViolations?: string[];
    __bwReportCsp?: (text: string) => void;
  }
}

export class Guard implements Guarded {
  dialogs: string[] = [];
  consoleErrors: string[] = [];
  pageErrors: string[] = [];
  cspViolations: string[] = [];
  /** beforeunload prompts the test expects (leaving a session with unsaved work): accepted, not counted. */
  private leavesExpected = 0;

  /** The next navigation leaves unsaved work: the page asks first (issue 14), and the test says leave. */
  expectLeaveWarning(): void {
    this.leavesExpected += 1;
  }

  async watch(page: Page): Promise<void> {
    page.on('dialog', (dialog) => {
      if (dialog.type() === 'beforeunload' && this.leavesExpected > 0) {
        this.leavesExpected -= 1;
        void dialog.accept().catch(() => {});
        return;
      }
      this.dialogs.push(`${dialog.type()}: ${dialog.message()}`);
      void dialog.dismiss().catch(() => {});
    });
    page.on('console', (message) => {
      if (message.type() === 'error') this.consoleErrors.push(message.text());
    });
    page.on('pageerror', (error) => this.pageErrors.push(error.message));
    await page.exposeBinding('__bwReportCsp', (_source, text: string) => {
      this.cspViolations.push(text);
    });
    await page.addInitScript(() => {
      window.__bwCspViolations = [];
      document.addEventListener('securitypolicyviolation', (event) => {
        const text = `${event.violatedDirective} blocked ${event.blockedURI || '(inline)'}: ${event.sample}`;
        window.__bwCspViolations?.push(text);
        window.__bwReportCsp?.(text);
      });
    });
  }

  /** Violations recorded on `window` by the current document (the binding has them all). */
  static async windowViolations(page: Page): Promise<string[]> {
    return page.evaluate(() => window.__bwCspViolations ?? []);
  }

  summary(): Guarded {
    return {
      dialogs: this.dialogs,
      consoleErrors: this.consoleErrors,
      pageErrors: this.pageErrors,
      cspViolations: this.cspViolations,
    };
  }

  expectClean(what = 'the page'): void {
    expect(this.summary(), `${what}: no dialogs, page errors, console errors or CSP violations`).toEqual({
      dialogs: [],
      consoleErrors: [],
      pageErrors: [],
      cspViolations: [],
    });
  }
}

export const test = base.extend<{ guard: Guard }>({
  guard: [
    async ({ page }, use) => {
      const guard = new Guard();
      await guard.watch(page);
      await use(guard);
      guard.expectClean();
    },
    { auto: true },
  ],
});

export { expect };
