/**
 * Printing on the paper the user chooses: a full A4 page, or an 80 mm receipt roll. The choice is
 * made when printing: `printAs` marks `<html data-print="a4|receipt">` (what the printed copy's
 * styles follow: the `receipt:` variant in styles.css), sets the page's size with an `@page` rule,
 * prints, and puts both back once the print dialog closes (`afterprint`).
 *
 * What a roll prints is as long as it is: CSS has no "auto" page length, so the printed copy (the
 * page's `[data-printout]` element) is laid out off screen as the receipt prints it, measured, and
 * the page made that long.
 */

export type PrintLayout = 'a4' | 'receipt';

/** The roll's width and the margins left on it, in millimetres; the printed copy is as wide as what is left. */
export const RECEIPT_WIDTH_MM = 80;
export const RECEIPT_MARGIN_MM = 3;
/** Beyond the measured copy: room for a rounding of the printer's, so that it never spills onto a second page. */
const RECEIPT_SLACK_MM = 4;
/** A length to print on when the copy cannot be measured (nothing marked to print): a roll's usual tear-off. */
const RECEIPT_FALLBACK_MM = 200;

/** CSS pixels (96 to the inch) in millimetres. */
export const pxToMm = (px: number) => (px * 25.4) / 96;

/** The `@page` rule of a layout; a receipt's as long as its content (in mm) and its margins. */
export function pageRule(layout: PrintLayout, contentMm?: number): string {
  if (layout === 'a4') return '@page { size: A4 portrait; margin: 12mm 12mm 14mm; }';
  const content = contentMm !== undefined && Number.isFinite(contentMm) && contentMm > 0 ? contentMm : RECEIPT_FALLBACK_MM;
  const length = Math.ceil(content + 2 * RECEIPT_MARGIN_MM + RECEIPT_SLACK_MM);
  return `@page { size: ${RECEIPT_WIDTH_MM}mm ${length}mm; margin: ${RECEIPT_MARGIN_MM}mm; }`;
}

const STYLE_ID = 'print-page';

/** How tall the printed copy is (in mm) laid out as the current layout prints it: a hidden copy of it is measured. */
function printoutHeightMm(): number | undefined {
  const printout = document.querySelector<HTMLElement>('[data-printout]');
  if (!printout) return undefined;
  const copy = printout.cloneNode(true) as HTMLElement;
  copy.removeAttribute('data-printout');
  copy.setAttribute('aria-hidden', 'true');
  Object.assign(copy.style, { display: 'block', position: 'absolute', left: '-10000px', top: '0', visibility: 'hidden' });
  document.body.append(copy);
  const height = Math.max(copy.getBoundingClientRect().height, copy.scrollHeight);
  copy.remove();
  return height > 0 ? pxToMm(height) : undefined;
}

/** Takes back what `printAs` set: the layout and the page size. */
export function endPrint(): void {
  delete document.documentElement.dataset.print;
  document.getElementById(STYLE_ID)?.remove();
}

/** Prints the page on `layout`'s paper. */
export function printAs(layout: PrintLayout): void {
  endPrint();
  document.documentElement.dataset.print = layout;
  const style = document.createElement('style');
  style.id = STYLE_ID;
  style.textContent = pageRule(layout, layout === 'receipt' ? printoutHeightMm() : undefined);
  document.head.append(style);
  window.addEventListener('afterprint', endPrint, { once: true });
  window.print();
}
