// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { drawKeptLook, forgetKeptLooks, keepLook, KEPT_LOOKS_KEY, lookKey } from './kept-look';
import { KEPT_SESSION_KEY } from './kept-session';

/**
 * A kept look (a list as last drawn, kept for a start without a network) is drawn only for whom and
 * where it was kept: offline, the same user in the same business, at the same width, with the same build.
 */

const BUILD = 'build-1';

/** The kept session as app.tsx persists it: user `userId` in business `businessId`. */
function keepSession(userId: number, businessId: number, buster = BUILD): void {
  localStorage.setItem(
    KEPT_SESSION_KEY,
    JSON.stringify({ buster, clientState: { queries: [{ queryKey: ['session', 'user', businessId], state: { data: { id: userId } } }] } }),
  );
  localStorage.setItem('business_id', String(businessId));
}

/** The page as the list screen draws it: the app's root with a list in it, the first look beside it. */
function drawPage(rows: string[]): void {
  document.body.innerHTML = `
    <div id="first-look"><p>Loading Bodega…</p></div>
    <div id="root"><main id="main">
      <h1>Brands</h1>
      <label for="quick-search">Quick Search</label><input id="quick-search" aria-describedby="hint" />
      <div data-list-progress="" aria-hidden="true"></div>
      <table><tbody>${rows.map((name) => `<tr><td>${name}</td></tr>`).join('')}</tbody></table>
    </main></div>`;
}

const notice = () => {
  const element = document.createElement('p');
  element.setAttribute('data-offline-notice', '');
  element.textContent = 'Offline — showing data saved at Nov 29, 2026, 9:00 AM';
  return element;
};

const keep = (rows: string[], address = '/brands', userId = 7, businessId = 1) => {
  drawPage(rows);
  keepLook({ address, userId, businessId, notice: notice(), placeAfter: '[data-list-progress]' });
};

/** Starts the page afresh at `address` (what a new page would hold before the app) and runs the kept look's script. */
function start(address = '/brands'): HTMLElement {
  window.history.replaceState(null, '', address);
  document.body.innerHTML = '<div id="first-look"><p>Loading Bodega…</p></div><div id="root"></div>';
  drawKeptLook(BUILD);
  return document.getElementById('first-look') as HTMLElement;
}

let online = false;

beforeEach(() => {
  online = false;
  vi.spyOn(navigator, 'onLine', 'get').mockImplementation(() => online);
  localStorage.clear();
  keepSession(7, 1);
});
afterEach(() => vi.restoreAllMocks());

describe('a kept look', () => {
  it('is drawn offline where the list was, with its rows and the offline notice, seen and not used', () => {
    keep(['Century Tuna', 'Lucky Me']);
    const look = start();
    expect(look.getAttribute('data-kept-for')).toBe('/brands');
    expect(look.inert).toBe(true);
    expect(look.getAttribute('aria-busy')).toBe('true');
    expect([...look.querySelectorAll('td')].map((cell) => cell.textContent)).toEqual(['Century Tuna', 'Lucky Me']);
    // The notice after the list's progress bar, as the list draws it offline.
    expect(look.querySelector('[data-list-progress] + [data-offline-notice]')?.textContent).toMatch(/^Offline — showing data saved at /);
    // Nothing in it may take an id or a label the app's own drawing holds.
    expect(look.querySelectorAll('[id], [for], [aria-describedby]')).toHaveLength(0);
  });

  it('keeps the notice the list drew offline, not a second one', () => {
    drawPage(['Century Tuna']);
    document.querySelector('[data-list-progress]')?.after(notice());
    keepLook({ address: '/brands', userId: 7, businessId: 1, notice: notice(), placeAfter: '[data-list-progress]' });
    expect(start().querySelectorAll('[data-offline-notice]')).toHaveLength(1);
  });

  it('is not drawn online, nor where the address is searched or another', () => {
    keep(['Century Tuna']);
    online = true;
    expect(start().hasAttribute('data-kept-for')).toBe(false);
    online = false;
    expect(start('/brands?page=2').hasAttribute('data-kept-for')).toBe(false);
    expect(start('/items').hasAttribute('data-kept-for')).toBe(false);
    expect(start().textContent).toContain('Century Tuna');
  });

  it('is drawn only for the user and business it was kept for, at its width, in its build', () => {
    keep(['Century Tuna']);
    keepSession(8, 1);
    expect(start().hasAttribute('data-kept-for')).toBe(false);
    keepSession(7, 2);
    expect(start().hasAttribute('data-kept-for')).toBe(false);
    keepSession(7, 1, 'build-0');
    expect(start().hasAttribute('data-kept-for')).toBe(false);
    keepSession(7, 1);
    const width = vi.spyOn(window, 'innerWidth', 'get').mockReturnValue(window.innerWidth + 1);
    expect(start().hasAttribute('data-kept-for')).toBe(false);
    width.mockRestore();
    expect(start().hasAttribute('data-kept-for')).toBe(true);
    localStorage.removeItem(KEPT_SESSION_KEY);
    expect(start().hasAttribute('data-kept-for')).toBe(false);
  });

  it('is kept for the latest six addresses, and goes with the session', () => {
    let now = Date.now();
    vi.spyOn(Date, 'now').mockImplementation(() => (now += 1000));
    for (const name of ['a', 'b', 'c', 'd', 'e', 'f', 'g']) keep([name], `/${name}`);
    expect(Object.keys(JSON.parse(localStorage.getItem(KEPT_LOOKS_KEY) ?? '{}')).sort()).toEqual(['/b', '/c', '/d', '/e', '/f', '/g']);
    expect(localStorage.getItem(lookKey('/a'))).toBeNull();
    expect(localStorage.getItem(lookKey('/g'))).toContain('<td>g</td>');
    forgetKeptLooks(localStorage);
    expect(Object.keys(localStorage).filter((key) => key.startsWith('bodega-kept-look'))).toEqual([]);
  });

  it('is drawn by nobody when what was kept is not readable', () => {
    localStorage.setItem(lookKey('/brands'), '{not json');
    expect(start().hasAttribute('data-kept-for')).toBe(false);
    keep(['Century Tuna']);
    expect(start().hasAttribute('data-kept-for')).toBe(true);
  });
});
