import { z } from 'zod';
import { ROUNDED_TO_2, valueOf } from './field-values';
import { date, money, text } from './fields';
import { centavosToPesos, formatPesos, pesosToCentavos } from './money';
import {
  detailNotTaken,
  detailRequired,
  isTenderMethod,
  methodLabel,
  needsOf,
  PAYMENT_METHODS,
  paymentMethodOf,
  receivedNotTaken,
  SPLIT_TENDER,
  TENDER_DETAILS,
  TENDER_METHODS,
  TENDERS_MAX,
  tendersTotal,
  type Tender,
  type TenderDetail,
  type TenderMethod,
} from './tenders';
import { fieldErrors, type FieldErrors } from './validation';

/**
 * The checks of a payment's tenders, with their messages (`tenders.1.reference`), shared by the
 * server, which refuses what fails them, and the payment form, which says so before sending
 * offline. A payment's create body carries `tenders`; a body as clients sent it before tenders
 * (`amount` and `payment_method`, perhaps `payment_reference`) is one tender.
 */

/** The most one tender may be, in pesos (as any money field). */
const TENDER_AMOUNT_MAX = 1_000_000_000_000;

/**
 * The least amount the API keeps above 0: a centavo. The document says it (the check is on the
 * centavos an amount is kept as, so less than half a centavo is 0), as field-values.ts says
 * `positive`'s least value.
 */
const LEAST_AMOUNT = 0.01;

const isBlank = (input: unknown) => input === null || input === undefined || (typeof input === 'string' && input.trim() === '');

/** An optional text of a tender: blank is none. */
const detailText = (label: string, max: number) =>
  z.preprocess((input) => (isBlank(input) ? null : input), (valueOf(text(label, { max })) as z.ZodType<string>).nullable()).optional();

const referenceText = detailText('Reference', 100);
const checkNumberText = detailText('Check number', 50);

const methodValues = TENDER_METHODS.map((method) => method.value) as [TenderMethod, ...TenderMethod[]];
/** "cash, GCash, Maya, other QR Ph, bank transfer, check, card": brands as they are spelt. */
const methodNames = TENDER_METHODS.map(({ value, label }) =>
  value === 'gcash' || value === 'maya' ? label : label.charAt(0).toLowerCase() + label.slice(1),
).join(', ');

const tenderAmount = z.preprocess(
  (input) => (typeof input === 'string' && /^\s*-?\d+(\.\d+)?\s*$/.test(input) ? Number(input) : isBlank(input) ? undefined : input),
  z
    .number({ error: (issue) => (issue.input === undefined ? 'The amount field is required.' : 'The amount field must be a number.') })
    .refine(Number.isFinite, 'The amount field must be a number.')
    .refine((pesos) => pesosToCentavos(pesos) > 0, 'The amount must be greater than 0.')
    .refine((pesos) => pesos <= TENDER_AMOUNT_MAX, `The amount field must not be greater than ${TENDER_AMOUNT_MAX}.`),
);

/** What the document says of an amount `tenderAmount` checks: above 0 (a centavo at least), and how it is kept. */
const AMOUNT_STATED = {
  type: 'number',
  minimum: LEAST_AMOUNT,
  maximum: TENDER_AMOUNT_MAX,
  description: `In pesos, more than 0. ${ROUNDED_TO_2}`,
};

/** What a customer handed over in cash (pesos): blank is not told. */
const receivedAmount = z
  .preprocess(
    (input) => (typeof input === 'string' && /^\s*-?\d+(\.\d+)?\s*$/.test(input) ? Number(input) : isBlank(input) ? null : input),
    z
      .number({ error: 'The cash received field must be a number.' })
      .refine(Number.isFinite, 'The cash received field must be a number.')
      .refine((pesos) => pesos <= TENDER_AMOUNT_MAX, `The cash received field must not be greater than ${TENDER_AMOUNT_MAX}.`)
      .nullable(),
  )
  .meta({
    type: 'number',
    nullable: true,
    maximum: TENDER_AMOUNT_MAX,
    description: `Of cash only: what the customer handed over, in pesos, at least the amount (the change is the rest). ${ROUNDED_TO_2}`,
  })
  .optional();

/** A property a method takes no value of: left out, or null. */
const NOT_TAKEN = { nullable: true, enum: [null] };

/**
 * Each method's branch of a tender's `oneOf`, as its checks decide (`superRefine`): what the method
 * needs, required and not null; what it takes no value of (the other details, and but for cash
 * the cash received), left out or null.
 */
const byMethod = TENDER_METHODS.map(({ value }) => {
  const needs = needsOf(value);
  const detail = (name: TenderDetail) => (needs.includes(name) ? { type: 'string' } : { type: 'string', ...NOT_TAKEN });
  return {
    type: 'object',
    ...(needs.length > 0 && { required: [...needs] }),
    properties: {
      method: { type: 'string', enum: [value] },
      ...Object.fromEntries(TENDER_DETAILS.map((name) => [name, detail(name)])),
      ...(value !== 'cash' && { received: { type: 'number', ...NOT_TAKEN } }),
    },
  };
});

/**
 * One tender: its method, its amount (pesos, more than 0), what its method needs and nothing
 * more, and of cash perhaps what was received — at least the amount, the change being the rest.
 */
export const tenderInput = z
  .object({
    method: z.enum(methodValues, {
      error: (issue) => (isBlank(issue.input) ? 'The method field is required.' : `The method must be one of: ${methodNames}.`),
    }),
    amount: tenderAmount.meta(AMOUNT_STATED),
    reference: referenceText,
    bank: detailText('Bank', 100),
    check_number: checkNumberText,
    check_date: z
      .preprocess((input) => (isBlank(input) ? null : input), (valueOf(date('Check date')) as z.ZodType<string>).nullable())
      .optional(),
    received: receivedAmount,
  })
  .superRefine((tender, context) => {
    const needs = needsOf(tender.method);
    for (const detail of TENDER_DETAILS) {
      const given = tender[detail] !== null && tender[detail] !== undefined;
      if (needs.includes(detail) && !given)
        context.addIssue({ code: 'custom', path: [detail], message: detailRequired(tender.method, detail) });
      if (!needs.includes(detail) && given)
        context.addIssue({ code: 'custom', path: [detail], message: detailNotTaken(tender.method, detail) });
    }
    if (tender.received === null || tender.received === undefined) return;
    if (tender.method !== 'cash') context.addIssue({ code: 'custom', path: ['received'], message: receivedNotTaken(tender.method) });
    else if (pesosToCentavos(tender.received) < pesosToCentavos(tender.amount)) {
      const amount = formatPesos(centavosToPesos(pesosToCentavos(tender.amount)));
      context.addIssue({ code: 'custom', path: ['received'], message: `The cash received must be at least the amount, ${amount}.` });
    }
  })
  .meta({ oneOf: byMethod });

/** A payment's tenders: at least one, at most `TENDERS_MAX`. */
export const tendersInput = z
  .array(tenderInput, {
    error: (issue) => (issue.input === undefined ? 'The tenders field is required.' : 'The tenders field must be a list.'),
  })
  .min(1, 'A payment needs at least one tender.')
  .max(TENDERS_MAX, `A payment can have at most ${TENDERS_MAX} tenders.`);

const paymentMethodValues = PAYMENT_METHODS.map((method) => method.value) as [string, ...string[]];

/**
 * What a payment's create takes beyond its fields: its tenders; or, as clients sent it before
 * tenders, its amount and method (with `payment_reference`, one of its fields) — checked
 * against each other by `paymentTenders`.
 */
export const paymentCreateFields = {
  tenders: tendersInput
    .nullish()
    .describe(
      "How it was paid, in order: each tender's method, amount (pesos) and what the method needs — reference (GCash, Maya, " +
        "other QR Ph, bank transfer; a card's approval code), or a check's bank, check_number and check_date; cash may say " +
        "what the customer handed over, received (pesos, at least its amount). The payment's amount is what they come to, and its method their one method or split: " +
        'amount and payment_method, when given beside them, must say so. ' +
        'Without it, amount and payment_method make one tender, its reference payment_reference — required for a method that ' +
        "needs one (a check's number, for a check).",
    ),
  // Above 0 either way: what the tenders come to, or the one tender's amount (`singleTender`).
  amount: z
    .preprocess((input) => (isBlank(input) ? null : input), valueOf(money('Amount')).nullable())
    .meta({ ...AMOUNT_STATED, nullable: true })
    .optional(),
  payment_method: z
    .preprocess(
      (input) => (isBlank(input) ? null : input),
      z.enum(paymentMethodValues, { error: 'The selected payment method is invalid.' }).nullable(),
    )
    .optional(),
};

/** A parsed tender as it is kept: centavos, and null for each detail not given. */
function kept(tender: z.infer<typeof tenderInput>): Tender {
  return {
    method: tender.method,
    amount: pesosToCentavos(tender.amount),
    reference: tender.reference ?? null,
    bank: tender.bank ?? null,
    check_number: tender.check_number ?? null,
    check_date: tender.check_date ?? null,
    received: tender.received === null || tender.received === undefined ? null : pesosToCentavos(tender.received),
  };
}

export type PaymentTenders = { tenders: Tender[]; errors?: undefined } | { tenders?: undefined; errors: FieldErrors };

/**
 * A body as clients sent it before tenders: one tender of `payment_method` for `amount`, its
 * reference `payment_reference` — a check's number, for a check, whose bank and date such a body
 * cannot give. Messages go under the fields the body named.
 */
function singleTender(body: Record<string, unknown>): PaymentTenders {
  const method = body.payment_method;
  if (isBlank(method) && isBlank(body.amount)) return { errors: { tenders: ['A payment needs at least one tender.'] } };
  if (isBlank(method)) return { errors: { payment_method: ['The payment method field is required.'] } };
  if (method === SPLIT_TENDER) return { errors: { payment_method: ['A split tender is sent as its tenders.'] } };
  if (!isTenderMethod(method)) return { errors: { payment_method: ['The selected payment method is invalid.'] } };
  const errors: FieldErrors = {};
  const amount = tenderAmount.safeParse(body.amount);
  if (!amount.success) errors.amount = amount.error.issues.map((issue) => issue.message);
  // What the method needs, from the one reference such a body has: a check's number, for a check.
  const needed = method === 'check' ? 'check_number' : needsOf(method).includes('reference') ? 'reference' : undefined;
  const reference = (needed === 'check_number' ? checkNumberText : referenceText).safeParse(body.payment_reference);
  if (!reference.success) errors.payment_reference = reference.error.issues.map((issue) => issue.message);
  else if (needed && !reference.data) errors.payment_reference = [detailRequired(method, needed)];
  if (Object.keys(errors).length > 0 || !amount.success || !reference.success) return { errors };
  const traced = needed ? (reference.data ?? null) : null;
  return {
    tenders: [
      {
        method,
        amount: pesosToCentavos(amount.data),
        reference: needed === 'reference' ? traced : null,
        bank: null,
        check_number: needed === 'check_number' ? traced : null,
        check_date: null,
        received: null,
      },
    ],
  };
}

/**
 * The tenders of a payment's create body, or its field messages: its `tenders` (with `amount`
 * and `payment_method`, when given too, agreeing with them), else the one tender of a body as
 * clients sent it before tenders.
 */
export function paymentTenders(body: Record<string, unknown>): PaymentTenders {
  if (body.tenders === undefined || body.tenders === null) return singleTender(body);
  const parsed = tendersInput.safeParse(body.tenders);
  if (!parsed.success) return { errors: fieldErrors(parsed.error.issues.map((issue) => ({ ...issue, path: ['tenders', ...issue.path] }))) };
  const tenders = parsed.data.map(kept);
  const errors: FieldErrors = {};
  const total = tendersTotal(tenders);
  if (!isBlank(body.amount) && pesosToCentavos(Number(body.amount)) !== total) {
    errors.amount = [`The amount must be what the tenders come to, ${formatPesos(centavosToPesos(total))}.`];
  }
  const method = paymentMethodOf(tenders);
  if (!isBlank(body.payment_method) && body.payment_method !== method) {
    errors.payment_method = [`The payment method of these tenders is ${methodLabel(method).toLowerCase()}.`];
  }
  return Object.keys(errors).length > 0 ? { errors } : { tenders };
}
