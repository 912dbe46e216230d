import { activeBusinessId } from './api';
import { keptUserId } from './kept-session';

/**
 * A screen's kept look: the page as a screen last drew it with its data (a list's first page), kept
 * in localStorage, so that a start without a network draws it before the app's code is evaluated —
 * by a small script of its own (`kept-look-start.ts`, built apart from the app: vite.config.ts),
 * the service worker having served the page. It stands in the first look's element (index.html),
 * which hides the app's root while it holds a kept look, and goes when the screen is drawn with its
 * data (components/layout/first-look.tsx). What the kept look shows is what the device kept, and
 * says from when, as the screen does offline; it is drawn only for the user and the business it was
 * kept for, at the same width, with the same build, and only offline: online the screen's own
 * answer is on its way, and rows that change under the eyes would mislead.
 */

/** The addresses kept looks are kept for, each with when it was kept (ms); each look under its own key (`lookKey`). */
export const KEPT_LOOKS_KEY = 'bodega-kept-looks';
/** Where the look of `address` is kept: a start reads only its own, about 40 kB on a phone, 100 kB on a tablet. */
export const lookKey = (address: string) => `bodega-kept-look ${address}`;
/** Kept for this many addresses at most, the latest kept. */
const MOST_LOOKS = 6;

/** The attribute the first look's element carries with the address of the kept look it holds. */
export const KEPT_FOR_ATTRIBUTE = 'data-kept-for';
/** The attribute of the offline notice a screen draws (components/offline-notice.tsx). */
export const OFFLINE_NOTICE_ATTRIBUTE = 'data-offline-notice';

interface KeptLook {
  /** The page's `#root` as the screen drew it, ids and the rest that must stay unique left out. */
  html: string;
  userId: number;
  businessId: number;
  /** `innerWidth` when drawn: a screen draws otherwise at another width (a list's cards on a phone). */
  width: number;
}

function readJson<T>(storage: Pick<Storage, 'getItem'>, key: string): Partial<T> {
  try {
    const value = JSON.parse(storage.getItem(key) ?? '{}') as unknown;
    return value && typeof value === 'object' ? (value as Partial<T>) : {};
  } catch {
    return {};
  }
}

/**
 * The kept look to draw at `address` now: offline, for the user the kept session holds in the
 * active business (of this build: `buster`), at the width it was drawn at — or null.
 */
export function keptLookAt(address: string, buster: string): string | null {
  if (navigator.onLine) return null;
  const look = readJson<KeptLook>(localStorage, lookKey(address));
  const businessId = activeBusinessId();
  if (typeof look.html !== 'string' || look.businessId !== businessId || look.width !== window.innerWidth) return null;
  return keptUserId(businessId, buster) === look.userId ? look.html : null;
}

/** Draws the kept look of the page's address in the first look's element, if there is one to draw. */
export function drawKeptLook(buster: string): void {
  const element = document.getElementById('first-look');
  const address = window.location.pathname;
  // A list searched, sorted or paged is not what was kept.
  if (!element || window.location.search !== '') return;
  const html = keptLookAt(address, buster);
  if (html === null) return;
  element.innerHTML = html;
  // Seen, not used: the app's screen takes its place once drawn.
  element.inert = true;
  element.setAttribute('aria-busy', 'true');
  element.setAttribute(KEPT_FOR_ATTRIBUTE, address);
}

/** Attributes that name other elements or must be unique in a page, which the app's own drawing holds while the look stands. */
const UNIQUE_ATTRIBUTES = ['id', 'for', 'aria-controls', 'aria-labelledby', 'aria-describedby', 'aria-owns', 'aria-activedescendant'];

/**
 * Keeps the page as drawn now as the look of `address`, for `userId` in `businessId`; `notice`
 * (the offline notice, as the screen draws it offline) is put after the element `placeAfter`
 * selects when the page does not show it already (drawn online).
 */
export function keepLook({
  address,
  userId,
  businessId,
  notice,
  placeAfter,
}: {
  address: string;
  userId: number;
  businessId: number;
  notice: HTMLElement;
  placeAfter: string;
}): void {
  const root = document.getElementById('root');
  if (!root) return;
  const copy = root.cloneNode(true) as HTMLElement;
  const place = copy.querySelector(placeAfter);
  if (!place) return;
  if (!copy.querySelector(`[${OFFLINE_NOTICE_ATTRIBUTE}]`)) place.after(notice);
  for (const name of UNIQUE_ATTRIBUTES) for (const element of copy.querySelectorAll(`[${name}]`)) element.removeAttribute(name);
  const look: KeptLook = { html: copy.innerHTML, userId, businessId, width: window.innerWidth };
  const kept = Object.entries({ ...readJson<Record<string, number>>(localStorage, KEPT_LOOKS_KEY), [address]: Date.now() }).sort(
    ([, a], [, b]) => (b ?? 0) - (a ?? 0),
  );
  for (const [dropped] of kept.slice(MOST_LOOKS)) localStorage.removeItem(lookKey(dropped));
  try {
    localStorage.setItem(KEPT_LOOKS_KEY, JSON.stringify(Object.fromEntries(kept.slice(0, MOST_LOOKS))));
    localStorage.setItem(lookKey(address), JSON.stringify(look));
  } catch {
    // Storage full: this start draws the loading look, as without a kept look.
    localStorage.removeItem(lookKey(address));
  }
}

/** What was kept of the user's screens goes with their session. */
export function forgetKeptLooks(storage: Pick<Storage, 'getItem' | 'removeItem'>): void {
  for (const address of Object.keys(readJson<Record<string, number>>(storage, KEPT_LOOKS_KEY))) storage.removeItem(lookKey(address));
  storage.removeItem(KEPT_LOOKS_KEY);
}
