// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { pageRule, printAs, pxToMm } from './print';

describe('the paper a document prints on', () => {
  afterEach(() => {
    vi.restoreAllMocks();
    document.body.innerHTML = '';
  });

  it('gives A4 its size and margins, and a receipt 80 mm wide and as long as it is', () => {
    expect(pageRule('a4')).toBe('@page { size: A4 portrait; margin: 12mm 12mm 14mm; }');
    // 120.2 mm of receipt, 3 mm margins each end, and 4 mm to spare.
    expect(pageRule('receipt', 120.2)).toBe('@page { size: 80mm 131mm; margin: 3mm; }');
    // Nothing measured: a usual tear-off.
    expect(pageRule('receipt')).toBe('@page { size: 80mm 210mm; margin: 3mm; }');
    expect(pageRule('receipt', Number.NaN)).toBe('@page { size: 80mm 210mm; margin: 3mm; }');
    expect(pxToMm(96)).toBeCloseTo(25.4);
  });

  it('marks the page with the layout while it prints, and takes it back after', () => {
    const print = vi.spyOn(window, 'print').mockImplementation(() => {
      // While the dialog is open, the page is laid out for the paper chosen.
      expect(document.documentElement.dataset.print).toBe('receipt');
      expect(document.getElementById('print-page')?.textContent).toMatch(/^@page \{ size: 80mm \d+mm; margin: 3mm; \}$/);
    });
    document.body.innerHTML = '<main><article data-printout style="display:none">A copy</article></main>';
    printAs('receipt');
    expect(print).toHaveBeenCalledOnce();
    // The measuring copy is gone.
    expect(document.querySelectorAll('article')).toHaveLength(1);
    window.dispatchEvent(new Event('afterprint'));
    expect(document.documentElement.dataset.print).toBeUndefined();
    expect(document.getElementById('print-page')).toBeNull();
  });

  it('prints on another paper the next time without leaving the first one behind', () => {
    vi.spyOn(window, 'print').mockImplementation(() => {});
    printAs('receipt');
    printAs('a4');
    expect(document.documentElement.dataset.print).toBe('a4');
    expect(document.querySelectorAll('#print-page')).toHaveLength(1);
    expect(document.getElementById('print-page')?.textContent).toContain('size: A4');
    window.dispatchEvent(new Event('afterprint'));
    expect(document.documentElement.dataset.print).toBeUndefined();
  });
});
