import '../lib/zod-config.ts';
import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { App, preloadPage } from './App.tsx';

/**
 * Starts React on `root` once the current page's chunk is in memory: until then the static frame
 * from index.html stays on screen, and React's first commit is the page itself, not a loading
 * spinner (see lib/lazy-page.tsx). The first render runs as a transition, which React splits into
 * short tasks instead of one long one that blocks input.
 */
export async function startApp(root: HTMLElement): Promise<void> {
  await preloadPage(window.location.pathname);
  const reactRoot = createRoot(root);
  startTransition(() =>
    reactRoot.render(
      <StrictMode>
        <App />
      </StrictMode>,
    ),
  );
}
