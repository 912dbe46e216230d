import { centavosToPesos, pesosToCentavos } from '../../../domain/money';
import { TENDER_NEEDS } from '../../../domain/tenders';
import type { LineRow } from '../../components/documents/line-rows';
import { formatCentavos } from '../../lib/format';
import { changeAt } from '../../lib/utils';

/**
 * A sale at the counter as the cashier makes it, in plain data: the basket (what was scanned or
 * picked, a repeated scan adding one), the buyer's senior citizen or PWD discount, and how it is
 * paid — cash handed over (what is received and the change) and any other tenders, a split. It
 * becomes one sales invoice with its payment (`saleBody`): the same invoice the invoice form makes.
 */

/** One line of the basket: an item in its base unit, and how many. */
export interface BasketLine {
  itemId: number;
  name: string;
  unitId: number;
  quantity: number;
}

/** An item as a scan or a search finds it. */
export interface FoundItem {
  id: number;
  name: string;
  unitId: number;
}

/** The basket with one more of `item`: a line of its own, or one more on the line it has. */
export function addOne(basket: readonly BasketLine[], item: FoundItem): BasketLine[] {
  const at = basket.findIndex((line) => line.itemId === item.id && line.unitId === item.unitId);
  if (at === -1) return [...basket, { itemId: item.id, name: item.name, unitId: item.unitId, quantity: 1 }];
  return basket.map((line, index) => (index === at ? { ...line, quantity: line.quantity + 1 } : line));
}

/** The basket with line `at` at `quantity` (whole units, at least one); none removes it. */
export function withQuantity(basket: readonly BasketLine[], at: number, quantity: number): BasketLine[] {
  if (quantity <= 0) return basket.filter((_, index) => index !== at);
  return changeAt(basket, at, { quantity });
}

/** The basket as the line editor's rows, priced from the list (blank price and discount). */
export const basketRows = (basket: readonly BasketLine[]): LineRow[] =>
  basket.map((line) => ({
    item_id: line.itemId,
    item_name: line.name,
    unit_of_measurement_id: line.unitId,
    quantity: String(line.quantity),
    unit_price: '',
    discount_percent: '',
  }));

/** A tender other than cash: its method, amount (as typed) and reference (none for account credit). */
export interface OtherTender {
  method: 'gcash' | 'maya' | 'qrph' | 'card' | 'account_credit';
  amount: string;
  reference: string;
}

/** The methods the counter takes besides cash, in the order its buttons show them. */
export const COUNTER_METHODS: readonly OtherTender['method'][] = ['gcash', 'maya', 'qrph', 'card'];

/** How a sale is paid as the pay panel holds it. */
export interface Payment {
  /** What the customer handed over in cash, as typed; blank when nothing is paid in cash. */
  received: string;
  others: OtherTender[];
}

export const NO_PAYMENT: Payment = { received: '', others: [] };

const centavosOf = (typed: string): number | null => {
  const text = typed.trim().replace(/,/g, '');
  if (text === '' || !/^\d+(\.\d{0,2})?$/.test(text)) return null;
  return pesosToCentavos(Number(text));
};

/** What a payment comes to against a total: each part in centavos, and what still stops the sale. */
export interface Settlement {
  /** What the other tenders come to. */
  others: number;
  /** What is paid in cash: the rest of the total after the other tenders. */
  cash: number;
  received: number;
  change: number;
  /** Why the sale cannot be completed yet, in the cashier's words; none when it can. */
  problem: string | null;
}

/**
 * How `payment` settles `total` (centavos): the other tenders first, cash for the rest — the cash
 * received must cover it, and what is over is the change. A tender's amount must be more than
 * zero, its reference given where its method needs one, and the tenders may not come to more
 * than the total.
 */
export function settle(total: number, payment: Payment): Settlement {
  const amounts = payment.others.map((tender) => centavosOf(tender.amount));
  const others = amounts.reduce<number>((sum, amount) => sum + (amount ?? 0), 0);
  const cash = Math.max(0, total - others);
  const received = centavosOf(payment.received) ?? 0;
  const change = Math.max(0, received - cash);
  const blankReference = payment.others.find((tender) => TENDER_NEEDS[tender.method].includes('reference') && !tender.reference.trim());
  const problem =
    total <= 0
      ? 'Scan or pick an item first.'
      : amounts.some((amount) => amount === null || amount <= 0)
        ? 'Enter the amount of each tender.'
        : others > total
          ? `The tenders come to ${formatCentavos(others)}, more than the total of ${formatCentavos(total)}.`
          : blankReference
            ? `Enter the ${blankReference.method === 'card' ? 'approval code' : 'reference number'} of the ${methodWord(blankReference.method)} payment.`
            : payment.received.trim() !== '' && centavosOf(payment.received) === null
              ? 'The cash received must be an amount in pesos.'
              : received < cash
                ? `${formatCentavos(cash - received)} more is due${received > 0 ? ` (cash received ${formatCentavos(received)})` : ''}.`
                : null;
  return { others, cash, received, change, problem };
}

const methodWord = (method: OtherTender['method']) =>
  ({ gcash: 'GCash', maya: 'Maya', qrph: 'QR Ph', card: 'card', account_credit: 'account credit' })[method];

/** The tenders of a settled payment as `POST /api/invoices` takes them under `payment`: the other tenders, then cash with what was received. */
export function tendersBody(payment: Payment, settlement: Settlement) {
  const others = payment.others.map((tender) => ({
    method: tender.method,
    amount: centavosToPesos(centavosOf(tender.amount) ?? 0),
    ...(TENDER_NEEDS[tender.method].includes('reference') && { reference: tender.reference.trim() }),
  }));
  if (settlement.cash === 0) return others;
  return [...others, { method: 'cash' as const, amount: centavosToPesos(settlement.cash), received: centavosToPesos(settlement.received) }];
}

/** What a customer is likely to hand over for `due` centavos: the next ₱20, ₱50, ₱100, ₱500 and ₱1,000 above it, the four smallest. */
export function likelyNotes(due: number): number[] {
  if (due <= 0) return [];
  const notes = [2_000, 5_000, 10_000, 50_000, 100_000].map((note) => Math.ceil(due / note) * note);
  return [...new Set(notes)]
    .filter((amount) => amount > due)
    .sort((a, b) => a - b)
    .slice(0, 4);
}

/** A senior citizen's or PWD's discount as the counter asks for it. */
export interface BuyerDiscount {
  kind: 'senior' | 'pwd' | null;
  idNumber: string;
  name: string;
}

export const NO_DISCOUNT: BuyerDiscount = { kind: null, idNumber: '', name: '' };

/** The sale as `POST /api/invoices` takes it: an invoice of the basket at the branch, today, with its payment. */
export function saleBody({
  date,
  branchId,
  contactId,
  discount,
  rows,
  payment,
  settlement,
}: {
  date: string;
  branchId: number;
  contactId: number;
  discount: BuyerDiscount;
  rows: ReturnType<typeof basketRows>;
  payment: Payment;
  settlement: Settlement;
}) {
  return {
    date,
    branch_id: branchId,
    contact_id: contactId,
    buyer_discount: discount.kind,
    buyer_discount_id_number: discount.kind ? discount.idNumber.trim() : null,
    buyer_discount_name: discount.kind ? discount.name.trim() : null,
    lines: rows.map((row) => ({
      item_id: row.item_id,
      unit_of_measurement_id: row.unit_of_measurement_id,
      quantity: Number(row.quantity),
      unit_price: null,
      discount_percent: null,
    })),
    payment: { tenders: tendersBody(payment, settlement) },
  };
}
