import { createElement, Suspense, type ComponentType } from 'react';
import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { preloadable, type Preloadable } from './preloadable';

const Greeting: ComponentType<{ name: string }> = ({ name }) => createElement('p', null, `hello ${name}`);

/** What a server render shows: the component, or the Suspense fallback while its chunk is not there. */
const render = (Page: Preloadable<{ name: string }>) =>
  renderToString(createElement(Suspense, { fallback: createElement('i', null, 'loading') }, createElement(Page, { name: 'acme' })));

describe('a preloadable component', () => {
  it('shows the fallback when its chunk was not preloaded', () => {
    const Page = preloadable(() => Promise.resolve(Greeting));
    expect(render(Page)).toContain('loading');
  });

  it('renders at once, without suspending, once preload() resolved', async () => {
    const Page = preloadable(() => Promise.resolve(Greeting));
    await Page.preload();
    expect(render(Page)).toBe('<!--$--><p>hello acme</p><!--/$-->'); // the boundary complete, no fallback
  });

  it('fetches its chunk once, and again after a failed fetch', async () => {
    let calls = 0;
    const Page = preloadable(() => (++calls === 1 ? Promise.reject(new Error('offline')) : Promise.resolve(Greeting)));
    await expect(Page.preload()).rejects.toThrow('offline');
    await Page.preload();
    await Page.preload();
    expect(calls).toBe(2);
    expect(render(Page)).toBe('<!--$--><p>hello acme</p><!--/$-->'); // the boundary complete, no fallback
  });
});
