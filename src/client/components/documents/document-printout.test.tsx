// @vitest-environment jsdom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, within } from '@testing-library/react';
import { act } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { getResource } from '../../../domain/resources/registry';
import type { ApiRecord } from '../../lib/resource-queries';
import { printDocument } from './document-print';
import { DocumentPrintout } from './document-printout';

/** The outbox as a print reaches it: what the server answers a print's count is each test's to say. */
const outbox = vi.hoisted(() => ({ submitChange: vi.fn() }));
vi.mock('../../lib/outbox', async (importOriginal) => ({ ...(await importOriginal<object>()), submitChange: outbox.submitChange }));

/**
 * A sales invoice's printed copy answers what its buyer asks at the counter: how it was paid,
 * when, by which cashier, and — sold to a walk-in — blank lines for the buyer's particulars.
 */

const BUSINESS = 1;
const invoices = getResource('invoices');

/** The session and the records the copy reads, as this device holds them: no request is made. */
function renderCopy(
  record: Partial<ApiRecord>,
  contact: Record<string, unknown>,
  permissions: string[] = ['view-contacts', 'view-branches'],
) {
  localStorage.setItem('business_id', String(BUSINESS));
  const client = new QueryClient({ defaultOptions: { queries: { staleTime: Infinity, retry: false } } });
  client.setQueryData(['session', 'user', BUSINESS], { id: 9, permission_names: permissions });
  client.setQueryData(
    ['session', 'businesses'],
    [
      {
        id: BUSINESS,
        name: 'Tindahan ni Aling Nena',
        registered_name: 'Aling Nena Trading Corp.',
        tin: '123-456-789',
        vat_registered: true,
      },
    ],
  );
  client.setQueryData([BUSINESS, 'contacts', 'record', Number(contact.id)], contact);
  client.setQueryData([BUSINESS, 'branches', 'record', 3], { id: 3, name: 'Makati', branch_code: '00001', address: 'Makati City' });
  const invoice = {
    id: 41,
    number: 'I-20261127-B00003-00000041',
    date: '2026-11-27',
    status: 'paid',
    contact_id: contact.id,
    contact: { id: contact.id, display: contact.name },
    branch_id: 3,
    branch: { id: 3, display: 'Makati' },
    lines: [
      { id: 1, item_id: 5, item: { id: 5, display: 'Pandesal', sku: 'P-1' }, unit: 'pc', quantity: 1, unit_price: 129.29, amount: 129.29 },
    ],
    prices_include_vat: false,
    subtotal: 129.29,
    vatable_sales: 129.29,
    vat_total: 15.51,
    total: 144.8,
    amount_paid: 144.8,
    balance: 0,
    deleted_at: null,
    version: 3,
    ...record,
  } as ApiRecord;
  render(
    <QueryClientProvider client={client}>
      <DocumentPrintout definition={invoices} record={invoice} />
    </QueryClientProvider>,
  );
  return Object.assign(screen.getByRole('article', { name: 'Printed copy', hidden: true }), { invoice });
}

const walkInCustomer = { id: 7, name: 'Walk-in customer', address: null, tin: null };
const namedBuyer = { id: 8, name: 'Dela Cruz Sari-Sari Store', address: '12 Mabini St, Makati City', tin: '222-333-444-000' };

/** Paid at the counter: ₱100.00 in cash, the rest by GCash with its reference. */
const paidAtTheCounter = [
  {
    id: 90,
    number: 'IP-20261127-B00003-00000012',
    date: '2026-11-27',
    amount: 144.8,
    tenders: [
      { method: 'cash', amount: 100, reference: null, bank: null, check_number: null, check_date: null },
      { method: 'gcash', amount: 44.8, reference: '9012345678901', bank: null, check_number: null, check_date: null },
    ],
  },
];

/** Each blank line of the copy, by its label: "Sold to", "Address", "TIN". */
const blanks = (copy: HTMLElement) =>
  [...copy.querySelectorAll('[data-blank]')].map((blank) => [blank.previousElementSibling?.textContent, blank.textContent]);

describe('the printed sales invoice', () => {
  beforeEach(() => localStorage.clear());
  afterEach(cleanup);

  it('shows each tender of its payment with its amount and reference, the time it was issued and the cashier', () => {
    // 2:35 pm in Manila on the invoice's date.
    const copy = renderCopy(
      { payments: paidAtTheCounter, issued_at: '2026-11-27T06:35:00.000Z', issued_by: { id: 4, display: 'Branch Cashier' } },
      walkInCustomer,
    );
    const paid = within(copy).getByRole('region', { name: 'Payment', hidden: true });
    const tenders = within(paid)
      .getAllByRole('listitem', { hidden: true })
      .map((row) => [...row.children].map((cell) => cell.textContent));
    expect(tenders).toEqual([
      ['Cash', '₱100.00'],
      ['GCash · Ref 9012345678901', '₱44.80'],
    ]);
    // Paid on the invoice's own date: its number, no date again; nothing left due.
    expect(paid.textContent).toContain('Payment IP-20261127-B00003-00000012');
    expect(paid.textContent).not.toMatch(/Nov|Balance due/);
    expect(copy.textContent).toMatch(/Time: 2:35\sPM/);
    expect(copy.textContent).toContain('Cashier: Branch Cashier');
    expect(copy.textContent).not.toContain('Issued:');
  });

  it('leaves a walk-in buyer blank lines for their name, address and TIN', () => {
    const copy = renderCopy({ payments: paidAtTheCounter }, walkInCustomer);
    expect(blanks(copy)).toEqual([
      ['Sold to:', ''],
      ['Address:', ''],
      ['TIN:', ''],
    ]);
    expect(copy.textContent).not.toContain('Walk-in customer');
  });

  it('names a buyer with their address and TIN, and leaves no blank lines', () => {
    const copy = renderCopy({ payments: paidAtTheCounter }, namedBuyer);
    expect(blanks(copy)).toEqual([]);
    expect(copy.textContent).toContain('Customer: Dela Cruz Sari-Sari Store');
    expect(copy.textContent).toContain('Address: 12 Mabini St, Makati City');
    expect(copy.textContent).toContain('TIN: 222-333-444-000');
    expect(copy.textContent).not.toContain('Sold to');
  });

  it('lists each payment of an invoice paid over time, dated when not on its day, a check by its bank and number, and what is still due', () => {
    const copy = renderCopy(
      {
        status: 'partially_paid',
        amount_paid: 120,
        balance: 24.8,
        issued_at: '2026-11-28T01:10:00.000Z',
        issued_by: null,
        payments: [
          {
            id: 91,
            number: 'IP-20261127-B00003-00000013',
            date: '2026-11-27',
            amount: 20,
            tenders: [{ method: 'maya', amount: 20, reference: 'MY-778', bank: null, check_number: null, check_date: null }],
          },
          {
            id: 95,
            number: 'IP-20261203-B00003-00000020',
            date: '2026-12-03',
            amount: 100,
            tenders: [{ method: 'check', amount: 100, reference: null, bank: 'BPI', check_number: '004512', check_date: '2026-12-03' }],
          },
        ],
      },
      namedBuyer,
    );
    const paid = within(copy).getByRole('region', { name: 'Payment', hidden: true });
    const texts = [...paid.children].map((child) => child.textContent);
    expect(texts[0]).toBe('Paid');
    expect(texts[1]).toBe('Payment IP-20261127-B00003-00000013Maya · Ref MY-778₱20.00');
    expect(texts[2]).toMatch(/^Payment IP-20261203-B00003-00000020, Dec 3, 2026BPI check 004512 of 2026-12-03₱100.00$/);
    expect(texts[3]).toBe('Balance due₱24.80');
    // Issued on the 28th (Manila) for a sale dated the 27th: the day and time in full; no cashier known.
    expect(copy.textContent).toMatch(/Issued: Nov 28, 2026, 9:10\sAM/);
    expect(copy.textContent).not.toContain('Time:');
    expect(copy.textContent).not.toContain('Cashier');
  });

  it('prints no payment for one without payments, or for a user who may not view them', () => {
    const unpaid = renderCopy({ status: 'unpaid', amount_paid: 0, balance: 144.8, payments: [] }, namedBuyer);
    expect(within(unpaid).queryByRole('region', { name: 'Payment', hidden: true })).toBeNull();
    cleanup();
    const unseen = renderCopy({}, namedBuyer);
    expect(within(unseen).queryByRole('region', { name: 'Payment', hidden: true })).toBeNull();
  });

  it('prints nothing of a sale still queued on this device: it has no number yet', () => {
    localStorage.setItem('business_id', String(BUSINESS));
    const client = new QueryClient();
    const { container } = render(
      <QueryClientProvider client={client}>
        <DocumentPrintout
          definition={invoices}
          record={{ id: '3f2a9c4e-1b7d-4e21-9a55-0c6f2d8e7b10', deleted_at: null, version: 0 } as ApiRecord}
        />
      </QueryClientProvider>,
    );
    expect(container.innerHTML).toBe('');
  });
});

/** The particulars an invoice was issued with, as its read carries them: not what the session and the contact say today. */
const issued = {
  seller: {
    name: 'Aling Nena Trading Corp.',
    trade_name: 'Tindahan ni Aling Nena',
    address: '1 Old Address St, Quezon City',
    tin: '123-456-789',
    vat_registered: true,
  },
  place: { type: 'branch', name: 'Makati (old name)', address: 'Old Branch Road', branch_code: '00007' },
  party: { name: 'Dela Cruz Sari-Sari Store', address: 'Old Mabini St', tin: '111-222-333-000' },
};

describe('a printed document’s particulars and reprints', () => {
  beforeEach(() => {
    localStorage.clear();
    outbox.submitChange.mockReset();
  });
  afterEach(cleanup);

  it('prints the particulars it was issued with, not today’s, also for a user who may not view contacts', () => {
    for (const permissions of [['view-contacts', 'view-branches'], []]) {
      const copy = renderCopy({ particulars: issued, prints: 0 }, namedBuyer, permissions);
      const text = copy.textContent ?? '';
      expect(text).toContain('Business name: Tindahan ni Aling Nena');
      expect(text).toContain('1 Old Address St, Quezon City');
      expect(text).toContain('VAT Reg. TIN: 123-456-789-00007');
      expect(text).toContain('Branch: Makati (old name), Old Branch Road');
      expect(text).toContain('Customer: Dela Cruz Sari-Sari Store');
      expect(text).toContain('Address: Old Mabini St');
      expect(text).toContain('TIN: 111-222-333-000');
      // Today's contact and branch, in the device's cache, are not what it was issued with.
      expect(text).not.toContain('12 Mabini St');
      expect(text).not.toContain('222-333-444-000');
      expect(text).not.toContain('-00001');
      cleanup();
    }
  });

  it('says REPRINT on a document printed before, and nothing on one never printed', () => {
    const original = renderCopy({ particulars: issued, prints: 0 }, namedBuyer);
    expect(original.querySelector('[data-reprint]')).toBeNull();
    cleanup();
    const reprint = renderCopy({ particulars: issued, prints: 1 }, namedBuyer);
    expect(reprint.querySelector('[data-reprint]')?.textContent).toBe('REPRINT');
  });

  it('counts a print before it goes to paper: the copy the server answers is on the page as the browser prints it', async () => {
    const copy = renderCopy({ particulars: issued, prints: 0 }, namedBuyer);
    const onPaper: (string | null)[] = [];
    const print = vi.spyOn(window, 'print').mockImplementation(() => {
      onPaper.push(copy.querySelector('[data-reprint]')?.textContent ?? null);
      window.dispatchEvent(new Event('afterprint'));
    });
    // The server says it is the original, then a reprint (another device printed it meanwhile).
    outbox.submitChange
      .mockResolvedValueOnce({ sent: true, data: { data: { copy: 1, printed_at: '2026-11-27T06:40:00.000Z' } } })
      .mockResolvedValueOnce({ sent: true, data: { data: { copy: 3, printed_at: '2026-11-28T01:10:00.000Z' } } });
    await act(() => printDocument(BUSINESS, invoices, copy.invoice, 'a4'));
    await act(() => printDocument(BUSINESS, invoices, copy.invoice, 'a4'));
    expect(onPaper[0]).toBeNull();
    expect(onPaper[1]).toMatch(/^REPRINTReprinted Nov 28, 2026, 9:10\sAM$/);
    expect(outbox.submitChange).toHaveBeenCalledWith(
      expect.objectContaining({ action: 'print', method: 'POST', path: '/api/invoices/41/prints', recordId: 41 }),
    );
    // Once printed, a print from the browser's own menu is a reprint too.
    expect(copy.querySelector('[data-reprint]')?.textContent).toBe('REPRINT');
    print.mockRestore();
  });

  it('prints offline with what the device knows: the first print here the original, the next a reprint', async () => {
    const copy = renderCopy({ id: 42, particulars: issued, prints: 0 }, namedBuyer);
    const onPaper: (string | null)[] = [];
    const print = vi.spyOn(window, 'print').mockImplementation(() => {
      onPaper.push(copy.querySelector('[data-reprint]')?.textContent ?? null);
      window.dispatchEvent(new Event('afterprint'));
    });
    outbox.submitChange.mockResolvedValue({ sent: false, message: 'Saved on this device.' });
    await act(() => printDocument(BUSINESS, invoices, copy.invoice, 'receipt'));
    await act(() => printDocument(BUSINESS, invoices, copy.invoice, 'receipt'));
    expect(onPaper[0]).toBeNull();
    expect(onPaper[1]).toMatch(/^REPRINTReprinted /);
    print.mockRestore();
  });
});
