import { preloadModules } from './app/module-graph.ts';
import { pageSourceOf } from './app/pages.ts';
import { importBootInLayers } from './app/staged-boot.ts';
import './styles/global.css';
import './styles/ux-details.css';
// In the first stylesheet, not a page's chunk: a share link's HTML carries its answer box, painted
// before any script (server/src/routes/share), and it must be styled as React will draw it.
import './styles/answer.css';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

/**
 * Resolves once the browser has painted the static frame from index.html (a frame, then a task),
 * or after 100 ms where no frame comes (a background tab draws none).
 */
function afterFirstPaint(): Promise<void> {
  return new Promise((resolve) => {
    requestAnimationFrame(() => setTimeout(resolve, 0));
    setTimeout(resolve, 100);
  });
}

// The app's code is requested only after the static frame is on screen: on a slow phone the first
// contentful paint waits for the HTML and the CSS alone, not for downloading and running React,
// Zod and the domain code (bench P11).
void afterFirstPaint()
  .then(() => {
    // Every chunk the start-up code and this page need, fetched at once, none run yet; then run a
    // layer a task (staged-boot.ts), so no single task evaluates the whole app.
    const page = pageSourceOf(window.location.pathname);
    return preloadModules(page ? ['startup', page] : ['startup'], {
      base: import.meta.env.BASE_URL,
    });
  })
  .then(() => importBootInLayers())
  .then(({ startApp }) => startApp(root))
  .catch((error: unknown) => {
    // The app's code did not arrive (a dropped connection): say so instead of a frame that never
    // comes alive. textContent only: nothing from the error is read as markup.
    console.error(error);
    const main = root.querySelector('main') ?? root;
    const note = document.createElement('p');
    note.className = 'banner banner--error';
    note.setAttribute('role', 'alert');
    note.textContent =
      'Blockwise could not load its code (the connection may have dropped). Reload the page to try again.';
    main.prepend(note);
  });
