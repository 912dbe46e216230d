// @vitest-environment jsdom
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { DocumentTotals } from './document-totals';

afterEach(cleanup);

describe('DocumentTotals', () => {
  it('shows every figure on screen with two decimals, as the printed copy does', () => {
    // 10 × ₱96 = ₱960, plus 12 % VAT: ₱115.20, ₱1,075.20 in all.
    render(<DocumentTotals record={{ prices_include_vat: false, subtotal: 960, vatable_sales: 960, vat_total: 115.2, total: 1075.2 }} />);
    const shown = screen.getAllByRole('term').map((term) => [term.textContent, term.nextElementSibling?.textContent]);
    expect(shown).toEqual([
      ['Subtotal', '₱960.00'],
      ['VATable sales', '₱960.00'],
      ['VAT (12%)', '₱115.20'],
      ['Total amount due', '₱1,075.20'],
    ]);
    expect(screen.getByTestId('document-total').textContent).toBe('₱1,075.20');
  });
});
