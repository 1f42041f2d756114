import { act } from '@testing-library/react';
import { hydrateRoot, type Root } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { afterEach, describe, expect, it } from 'vitest';
import { RenderedForVisit, useFrame } from './use-hydrated.ts';

let root: Root | undefined;
afterEach(() => {
  act(() => root?.unmount());
  root = undefined;
  document.body.innerHTML = '';
});

/** What each render of Calendar saw. */
const seen: boolean[] = [];

function Calendar() {
  const frame = useFrame();
  seen.push(frame);
  return <p>{frame ? 'frame' : 'month'}</p>;
}

/** What each render of a component using useFrame saw, as the page is rendered on the server, then hydrated. */
function framesSeen(forVisit: boolean): { server: boolean[]; browser: boolean[] } {
  seen.length = 0;
  const app = (
    <RenderedForVisit value={forVisit}>
      <Calendar />
    </RenderedForVisit>
  );
  const container = document.createElement('div');
  container.innerHTML = renderToString(app);
  document.body.append(container);
  const server = seen.splice(0);
  act(() => {
    root = hydrateRoot(container, app);
  });
  return { server, browser: [...seen] };
}

describe('useFrame', () => {
  it('is a frame when built for nobody, and the page itself once hydrated', () => {
    expect(framesSeen(false)).toEqual({ server: [true], browser: [true, false] });
    expect(document.body.textContent).toBe('month');
  });

  it('is never a frame in a page rendered for one visit, which hydrates once and is not rendered again', () => {
    expect(framesSeen(true)).toEqual({ server: [false], browser: [false] });
    expect(document.body.textContent).toBe('month');
  });
});
