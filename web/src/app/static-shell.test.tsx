import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import indexHtml from '../../index.html?raw';
import { App } from './App.tsx';

/**
 * index.html paints the app's frame as static HTML before any script runs (first and largest
 * contentful paint on a slow phone), then React replaces it. The two must not drift: a frame
 * that differs from what React draws would shift the layout or flash other words.
 */

const shell = new DOMParser().parseFromString(indexHtml, 'text/html');
const text = (el: Element | null | undefined) => (el?.textContent ?? '').replace(/\s+/g, ' ').trim();
const links = (el: Element | null | undefined) =>
  [...(el?.querySelectorAll('a') ?? [])].map((a) => [a.getAttribute('href'), text(a), a.className]);

describe('the static frame in index.html matches what React renders', () => {
  it('header, navigation, footer and the planning page heading', async () => {
    window.history.replaceState(null, '', '/');
    render(<App />);
    const h1 = await screen.findByRole('heading', { level: 1, name: 'Planning session' });

    const staticRoot = shell.getElementById('root')!;
    expect(links(staticRoot.querySelector('.app-header'))).toEqual(
      links(document.querySelector('.app-header')),
    );
    expect(text(staticRoot.querySelector('.skip-link'))).toBe(text(document.querySelector('.skip-link')));
    expect(text(staticRoot.querySelector('.app-footer'))).toBe(text(document.querySelector('.app-footer')));
    expect(text(staticRoot.querySelector('.app-footer'))).not.toBe('');

    const staticH1 = staticRoot.querySelector('main .page .page-head h1')!;
    expect(text(staticH1)).toBe(text(h1));
    expect(staticH1.id).toBe(h1.id);
    const lead = h1.parentElement!.querySelector('.page-head__lead');
    expect(text(staticRoot.querySelector('main .page .page-head .page-head__lead'))).toBe(text(lead));
    expect(text(lead)).toMatch(/^Bring fio results/);
  });

  it('marks the planning heading so the server can drop it on every other route', () => {
    expect(indexHtml).toMatch(
      /<!--blockwise:plan-head-->\s*<div class="page">[\s\S]*Planning session[\s\S]*<!--\/blockwise:plan-head-->/,
    );
  });
});
