import './lib/zod-config.ts';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App, preloadPage } from './app/App.tsx';
import './styles/global.css';
import './styles/ux-details.css';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

// The static frame in index.html stays on screen while the page's own chunk loads; React's first
// commit then draws the page, not a loading spinner (see lib/lazy-page.tsx).
void preloadPage(window.location.pathname).then(() =>
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>,
  ),
);
