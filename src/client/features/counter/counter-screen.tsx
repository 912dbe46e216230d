import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { Camera, Minus, Plus, Printer, ScanBarcode, Trash2, UserRound, X } from 'lucide-react';
import { Suspense, useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { documentTotals, todayInManila } from '../../../domain/documents';
import { centavosToPesos, pesosToCentavos } from '../../../domain/money';
import { permissionName } from '../../../domain/permissions';
import { getResource } from '../../../domain/resources/registry';
import { ACCOUNT_CREDIT, methodLabel, TENDER_NEEDS } from '../../../domain/tenders';
import { isWalkInName } from '../../../domain/walk-in';
import { lineContext, useLinePricing } from '../../components/documents/line-pricing';
import { signalRead } from '../../components/scan/barcode-reader';
import { useItemByCode } from '../../components/scan/item-by-code';
import { Button } from '../../components/ui/button';
import { lazyAhead, lazyComponent } from '../../components/ui/deferred';
import { Input } from '../../components/ui/input';
import { Label } from '../../components/ui/label';
import { NativeOptions, NativeSelect } from '../../components/ui/native-select';
import { ApiError, describeError } from '../../lib/api';
import { useDraft } from '../../lib/drafts';
import { clientKey, submitChange } from '../../lib/outbox';
import { outboxSnapshot } from '../../lib/outbox-snapshot';
import { pendingCreateRecord } from '../../lib/pending';
import { placesAt, usePlaces } from '../../lib/places';
import { listQuery, recordQuery, resourceKey, type ApiRecord } from '../../lib/resource-queries';
import { useActiveBusinessId, useCan, useWorkplace } from '../../lib/session';
import { changeAt, cn } from '../../lib/utils';
import { ChangeDue } from './change-due';
import type { SaleDone } from './counter-receipt';
import {
  addOne,
  basketRows,
  COUNTER_METHODS,
  likelyNotes,
  NO_DISCOUNT,
  NO_PAYMENT,
  saleBody,
  settle,
  withQuantity,
  type BasketLine,
  type BuyerDiscount,
  type OtherTender,
  type Payment,
} from './sale';
import { ProblemAlert } from '../../components/problem-alert';
import { formatCentavos } from '../../lib/format';

const invoices = getResource('invoices');

// What a sale opens only when asked for loads then, not with the screen: the receipt (and its
// printed copy) once a sale is made, the customer picker, the camera.
const CounterReceipt = lazyComponent(() => import('./counter-receipt').then((module) => module.CounterReceipt));
const ReferencePicker = lazyComponent(() => import('../../components/crud/reference-picker').then((module) => module.ReferencePicker));
const CameraScanButton = lazyAhead(() => import('../../components/scan/camera-scanner').then((module) => module.CameraScanButton));

/** What the counter keeps of a sale being made, as a draft on the device: a reload or a crash loses none of it. */
interface CounterDraft {
  branchId: number | null;
  basket: BasketLine[];
  customer: { id: number; name: string } | null;
  discount: BuyerDiscount;
}

/**
 * `/counter`: selling at a branch in a few taps. Scan (a wedge scanner types into the search box
 * and ends with Enter; the camera; or a name), each scan adding one; the walk-in customer unless
 * a named buyer is picked; a senior citizen's or PWD's discount as one toggle that asks for the
 * ID; the totals as the server will price them. Then Pay, on the same screen: cash received and
 * the change, or GCash, Maya, QR Ph or a card with its reference, or several of them; one tap
 * makes the sales invoice and its payment as one change of the outbox (sent once, online or not),
 * prints the 80 mm receipt with its number — a final one offline too, from the device's block —
 * and the next sale is ready. The same invoice as the invoice form's: same series, rules and
 * permissions.
 */
export function CounterScreen() {
  const businessId = useActiveBusinessId();
  const canSell = useCan(permissionName('create', invoices.permission));
  const canTakePayment = useCan(permissionName('create', getResource('invoice-payments').permission));
  const places = usePlaces();
  const workplace = useWorkplace();
  const branches = placesAt(places.places ?? [], 'operate', 'branch');
  const ownBranch = branches.find((branch) => workplace?.type === 'branch' && branch.id === workplace.id) ?? branches[0];

  const [branchId, setBranchId] = useState<number | null>(null);
  const [basket, setBasket] = useState<BasketLine[]>([]);
  const [customer, setCustomer] = useState<{ id: number; name: string } | null>(null);
  const [discount, setDiscount] = useState<BuyerDiscount>(NO_DISCOUNT);
  const [paying, setPaying] = useState(false);
  const [payment, setPayment] = useState<Payment>(NO_PAYMENT);
  const [done, setDone] = useState<SaleDone | null>(null);
  const [saving, setSaving] = useState(false);
  const [refusal, setRefusal] = useState<{ message: string; errors: Record<string, string[]> } | null>(null);

  const branch = branches.find((each) => each.id === branchId) ?? ownBranch;
  const date = todayInManila();
  const rows = basketRows(basket);
  const pricing = useLinePricing(
    rows,
    lineContext(invoices.document, { branch_id: branch?.id ?? null, date, buyer_discount: discount.kind }),
  );
  const priced = pricing.states.map((state) => (state.kind === 'priced' ? state.line : null));
  const total = documentTotals(priced.filter((line) => line !== null)).total;
  const lineProblems = rows.map((row, at) => {
    const state = pricing.states[at];
    return state.kind === 'refused' ? state.refusal.message : pricing.shortOf(row);
  });
  const unpriced = pricing.states.some((state) => state.kind !== 'priced');
  const walkIn = useWalkInCustomer();
  const buyer = customer ?? walkIn;
  // A named buyer's credit on account (goods they returned, kept for them) pays like a tender: an exchange.
  const account = useQuery({ ...recordQuery(businessId, getResource('contacts'), customer?.id ?? 0), enabled: customer !== null });
  const credit = customer && account.data ? pesosToCentavos(Number(account.data.credit_balance ?? 0)) : 0;
  const settlement = settle(total, payment);
  const discountMissing = discount.kind !== null && (!discount.idNumber.trim() || !discount.name.trim());

  // The sale being made is kept as a draft until it is completed: a reload or a crash loses none of it.
  const draft = useDraft<CounterDraft>(
    businessId === null ? null : 'counter',
    done ? { branchId, basket: [], customer: null, discount: NO_DISCOUNT } : { branchId, basket, customer, discount },
    {
      blank: (kept) => kept.basket.length === 0,
      restore: (kept) => {
        setBranchId(kept.branchId);
        setBasket(kept.basket);
        setCustomer(kept.customer);
        setDiscount(kept.discount);
      },
      label: 'Counter sale',
    },
  );

  const scanBox = useRef<HTMLInputElement>(null);
  const focusScan = () => requestAnimationFrame(() => scanBox.current?.focus());
  const queryClient = useQueryClient();

  const startNext = () => {
    setDone(null);
    setBasket([]);
    setCustomer(null);
    setDiscount(NO_DISCOUNT);
    setPayment(NO_PAYMENT);
    setPaying(false);
    setRefusal(null);
    focusScan();
  };
  const add = (item: ApiRecord) => {
    if (done) startNext();
    setPaying(false);
    setBasket((current) =>
      addOne(done ? [] : current, { id: Number(item.id), name: String(item.name), unitId: Number(item.unit_of_measurement_id) }),
    );
    signalRead();
    focusScan();
  };

  const complete = async () => {
    if (!branch || !buyer || settlement.problem || saving) return;
    setSaving(true);
    setRefusal(null);
    const body = saleBody({ date, branchId: branch.id, contactId: buyer.id, discount, rows, payment, settlement });
    const key = clientKey();
    try {
      const settled = await submitChange<{ data: ApiRecord }>(
        {
          businessId,
          resource: invoices.name,
          action: 'create',
          recordId: key,
          method: 'POST',
          path: `/api/${invoices.name}`,
          body,
          label: `Counter sale ${formatCentavos(total)}`,
        },
        key,
      );
      const record = settled.sent ? settled.data.data : queuedSale(key, body);
      setDone({ record, change: settlement.change, received: settlement.received, total, sent: settled.sent });
      // A scan now starts the next sale.
      focusScan();
      void queryClient.invalidateQueries({ queryKey: resourceKey(businessId, invoices) });
    } catch (error) {
      setRefusal(
        error instanceof ApiError ? { message: error.message, errors: error.errors ?? {} } : { message: describeError(error), errors: {} },
      );
    } finally {
      setSaving(false);
    }
  };

  if (!canSell || !canTakePayment) {
    return (
      <CounterMessage>
        Selling at the counter makes an invoice and takes its payment: you need permission to create both invoices and invoice payments.
      </CounterMessage>
    );
  }
  if (!places.loading && branches.length === 0) {
    return <CounterMessage>You do not sell at any branch of this business: the counter sells at a branch you work at.</CounterMessage>;
  }

  return (
    <div className="mx-auto grid max-w-5xl gap-4 md:grid-cols-[minmax(0,1fr)_22rem]">
      <section aria-label="Sale" className="min-w-0 space-y-3">
        {/* As tall with one branch named as with several to choose from: nothing moves once the places are known. */}
        <div className="flex min-h-11 flex-wrap items-center justify-between gap-2">
          <h1 className="text-2xl font-semibold">Counter</h1>
          {branches.length > 1 ? (
            <label className="flex items-center gap-2 text-sm">
              <span className="text-muted-foreground">Branch</span>
              <NativeSelect value={branch?.id ?? ''} onChange={(event) => setBranchId(Number(event.target.value))}>
                <NativeOptions choices={branches.map((each) => ({ value: each.id, label: each.name }))} />
              </NativeSelect>
            </label>
          ) : (
            branch && <p className="text-sm text-muted-foreground">{branch.name}</p>
          )}
        </div>
        {draft.restored && basket.length > 0 && !done && (
          <p className="text-sm text-muted-foreground">
            The sale in progress was kept on this device.{' '}
            <button type="button" className="min-h-11 underline" onClick={() => void draft.discard().then(startNext)}>
              Start over
            </button>
          </p>
        )}
        <ScanBox inputRef={scanBox} onItem={add} describe={pricing.resultDetails} waiting={done !== null} />
        <Basket
          basket={basket}
          sold={done !== null}
          amounts={priced.map((line) => (line ? line.amount + line.vat : null))}
          problems={lineProblems}
          onQuantity={(at, quantity) => {
            setPaying(false);
            setBasket(withQuantity(basket, at, quantity));
          }}
        />
      </section>

      <aside aria-label="Customer and payment" className="space-y-3">
        <CustomerChoice customer={customer} walkIn={walkIn} onChange={setCustomer} total={total} error={refusal?.errors.contact_id} />
        <DiscountToggle discount={discount} onChange={setDiscount} errors={refusal?.errors ?? {}} />
        <div className="rounded-lg border p-3">
          <p className="flex items-baseline justify-between text-lg font-semibold">
            <span>Total</span>
            <span data-testid="counter-total" className="tabular-nums">
              {unpriced && basket.length > 0 ? '…' : formatCentavos(total)}
            </span>
          </p>
          {discount.kind && total > 0 && (
            <p className="text-sm text-muted-foreground">
              {discount.kind === 'senior' ? 'Senior citizen' : 'PWD'} discount applied where the item takes it.
            </p>
          )}
        </div>
        {done ? (
          <CounterReceipt done={done} onNext={startNext} />
        ) : paying ? (
          <PayPanel
            total={total}
            payment={payment}
            onChange={setPayment}
            credit={credit}
            settlement={settlement}
            saving={saving}
            onBack={() => setPaying(false)}
            onComplete={() => void complete()}
            refusal={refusal}
          />
        ) : (
          <Button
            // On a phone it stays in reach at the foot of the screen, however long the basket.
            className="sticky bottom-2 h-14 w-full text-lg shadow-md md:static md:shadow-none"
            disabled={basket.length === 0 || unpriced || lineProblems.some(Boolean) || discountMissing || !buyer}
            onClick={() => {
              setRefusal(null);
              setPaying(true);
            }}
          >
            Pay {basket.length > 0 && !unpriced ? formatCentavos(total) : ''}
          </Button>
        )}
        {!done && discountMissing && basket.length > 0 && (
          <p className="text-sm text-muted-foreground">Enter the ID number and the name on the ID to give the discount.</p>
        )}
        {!buyer && walkIn === null && <WalkInMissing />}
      </aside>
    </div>
  );
}

/**
 * A queued sale as it will be printed: the body it sends, with the number it took from the device's
 * block. Should the list of queued changes not show it yet, it is the body alone, numbered on sync:
 * the sale is queued either way, and must never look refused (it would be made twice).
 */
function queuedSale(key: string, body: Record<string, unknown>): ApiRecord {
  const entry = outboxSnapshot().entries.find((each) => each.key === key);
  if (entry) return pendingCreateRecord(entry);
  const now = new Date().toISOString();
  return { ...body, id: key, deleted_at: null, version: 0, created_at: now, updated_at: now } as ApiRecord;
}

function CounterMessage({ children }: { children: React.ReactNode }) {
  return (
    <div className="mx-auto max-w-xl space-y-2">
      <h1 className="text-2xl font-semibold">Counter</h1>
      <p role="alert" className="rounded-md border p-4">
        {children}
      </p>
    </div>
  );
}

/**
 * The business's walk-in customer ("Walk-in customer"), whom a sale goes to unless the cashier
 * names a buyer: undefined while it is looked for, null when the business has none.
 */
function useWalkInCustomer(): { id: number; name: string } | null | undefined {
  const businessId = useActiveBusinessId();
  const found = useQuery(listQuery(businessId, getResource('contacts'), { name: 'walk-in', per_page: 15 }));
  if (!found.data) return found.isError ? null : undefined;
  const contact = found.data.data.find((record) => !record.deleted_at && isWalkInName(String(record.name ?? '')));
  return contact ? { id: Number(contact.id), name: String(contact.name) } : null;
}

function WalkInMissing() {
  return (
    <p className="text-sm text-muted-foreground">
      This business has no walk-in customer: pick the customer, or add a contact named “Walk-in customer” under{' '}
      <Link to="/$resource" params={{ resource: 'contacts' }} className="underline">
        Contacts
      </Link>
      .
    </p>
  );
}

/**
 * The search box the counter starts in: a wedge scanner types a code and Enter, which adds the
 * item whose barcode or SKU it is; typing a name lists the items it matches, and a tap adds one.
 * It keeps the focus, so the next scan lands in it.
 */
function ScanBox({
  inputRef,
  onItem,
  describe,
  waiting,
}: {
  inputRef: React.RefObject<HTMLInputElement | null>;
  onItem: (item: ApiRecord) => void;
  describe: (record: ApiRecord) => string;
  waiting: boolean;
}) {
  const businessId = useActiveBusinessId();
  const itemByCode = useItemByCode();
  const [text, setText] = useState('');
  const [term, setTerm] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const listId = useId();
  useEffect(() => {
    const timer = setTimeout(() => setTerm(text.trim()), 200);
    return () => clearTimeout(timer);
  }, [text]);
  const searching = term.length >= 2 && !/^\d{6,}$/.test(term);
  const results = useQuery({
    ...listQuery(businessId, getResource('items'), { q: term, per_page: 15, order_by_field_name: 'name', order_by: 'asc' }),
    enabled: searching,
  });
  const found = searching && text.trim() === term ? (results.data?.data ?? []).filter((record) => !record.deleted_at) : [];
  // Focused once the screen is drawn — after its first frame, laid out then: focusing sooner would
  // lay the whole page out inside the focus's own task (~20 ms on a fast machine, four times that on a phone).
  useEffect(() => {
    let drawn: ReturnType<typeof setTimeout> | undefined;
    const frame = requestAnimationFrame(() => {
      drawn = setTimeout(() => inputRef.current?.focus({ preventScroll: true }));
    });
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(drawn);
    };
  }, [inputRef]);

  const pick = (item: ApiRecord) => {
    setText('');
    setTerm('');
    setProblem(null);
    onItem(item);
  };
  // A scanner types the next code as soon as it reads it: the box is cleared at once, and the
  // codes are looked up one after another, so the basket takes them in the order scanned.
  const lookups = useRef<Promise<void>>(Promise.resolve());
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const code = text.trim();
    if (!code) return;
    const onlyFound = found.length === 1 ? found[0] : undefined;
    setText('');
    setTerm('');
    lookups.current = lookups.current.then(async () => {
      const item = (await itemByCode(code).catch(() => undefined)) ?? onlyFound;
      // What is typed meanwhile (the next code) stays in the box.
      if (item) {
        setProblem(null);
        onItem(item);
      } else setProblem(`No item has the barcode or SKU “${code}”.`);
    });
  };

  return (
    <div className="space-y-1">
      <form onSubmit={submit} className="flex gap-2" role="search">
        <div className="relative min-w-0 flex-1">
          <ScanBarcode aria-hidden className="pointer-events-none absolute top-1/2 left-3 size-5 -translate-y-1/2 text-muted-foreground" />
          <Input
            ref={inputRef}
            aria-label="Scan or search items"
            aria-controls={found.length > 0 ? listId : undefined}
            placeholder={waiting ? 'Scan to start the next sale' : 'Scan a barcode, or type a name'}
            className="h-12 pl-10 text-base"
            value={text}
            autoComplete="off"
            enterKeyHint="enter"
            onChange={(event) => {
              setText(event.target.value);
              setProblem(null);
            }}
          />
        </div>
        <Suspense
          fallback={
            <Button type="button" variant="outline" size="icon" disabled aria-label="Scan with the camera">
              <Camera aria-hidden />
            </Button>
          }
        >
          <CameraScanButton
            label="Scan with the camera"
            onRead={(code) => {
              void itemByCode(code).then((item) => (item ? pick(item) : setProblem(`No item has the barcode or SKU “${code}”.`)));
            }}
          />
        </Suspense>
      </form>
      <ProblemAlert problem={problem} />
      {found.length > 0 && (
        <ul id={listId} aria-label="Items found" className="divide-y rounded-md border">
          {found.map((item) => (
            <li key={String(item.id)}>
              <button
                type="button"
                className="flex min-h-12 w-full flex-col items-start px-3 py-2 text-left hover:bg-muted"
                onClick={() => pick(item)}
              >
                <span className="font-medium">{String(item.name)}</span>
                <span className="text-xs text-muted-foreground">{describe(item)}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/** The basket: each line with its quantity (− and + a tap each) and what it comes to, or why it cannot be sold. */
function Basket({
  basket,
  sold,
  amounts,
  problems,
  onQuantity,
}: {
  basket: BasketLine[];
  /** The basket of the sale just made: shown as it was sold, no longer changed. */
  sold: boolean;
  amounts: (number | null)[];
  problems: (string | undefined)[];
  onQuantity: (at: number, quantity: number) => void;
}) {
  if (basket.length === 0) {
    return <p className="rounded-lg border border-dashed p-6 text-center text-muted-foreground">Nothing scanned yet.</p>;
  }
  return (
    <ul aria-label="Basket" className="divide-y rounded-lg border">
      {basket.map((line, at) => (
        <li key={`${line.itemId}-${line.unitId}`} className="flex flex-wrap items-center gap-2 p-2">
          <div className="w-full min-w-0 sm:w-auto sm:flex-1">
            <p className="font-medium break-words">{line.name}</p>
            {problems[at] && <p className="text-sm text-destructive">{problems[at]}</p>}
          </div>
          <div className="flex items-center gap-1">
            <Button
              variant="outline"
              size="icon"
              className={cn(sold && 'invisible')}
              aria-label={line.quantity === 1 ? `Remove ${line.name}` : `One less ${line.name}`}
              onClick={() => onQuantity(at, line.quantity - 1)}
            >
              {line.quantity === 1 ? <Trash2 aria-hidden /> : <Minus aria-hidden />}
            </Button>
            <span className="w-10 text-center text-lg tabular-nums" aria-label={`Quantity of ${line.name}`}>
              {line.quantity}
            </span>
            <Button
              variant="outline"
              size="icon"
              className={cn(sold && 'invisible')}
              aria-label={`One more ${line.name}`}
              onClick={() => onQuantity(at, line.quantity + 1)}
            >
              <Plus aria-hidden />
            </Button>
          </div>
          <span className="ml-auto w-24 text-right tabular-nums">{amounts[at] === null ? '…' : formatCentavos(amounts[at]!)}</span>
        </li>
      ))}
    </ul>
  );
}

/** Who buys: the walk-in customer, or a buyer the cashier names (a VAT-registered buyer of ₱1,000 or more must be). */
function CustomerChoice({
  customer,
  walkIn,
  onChange,
  total,
  error,
}: {
  customer: { id: number; name: string } | null;
  walkIn: { id: number; name: string } | null | undefined;
  onChange: (customer: { id: number; name: string } | null) => void;
  total: number;
  error?: string[];
}) {
  const [choosing, setChoosing] = useState(false);
  const shown = customer ?? walkIn;
  return (
    <div className="rounded-lg border p-3">
      {choosing ? (
        <div className="space-y-1">
          <Label htmlFor="counter-customer">Customer</Label>
          <div className="flex gap-2">
            <div className="min-w-0 flex-1">
              <ReferencePicker
                id="counter-customer"
                target={getResource('contacts')}
                value={customer?.id ?? null}
                display={customer?.name ?? null}
                onChange={(id, record) => {
                  onChange(id && record ? { id, name: String(record.name) } : null);
                  if (id) setChoosing(false);
                }}
              />
            </div>
            <Button variant="ghost" size="icon" aria-label="Keep the walk-in customer" onClick={() => setChoosing(false)}>
              <X aria-hidden />
            </Button>
          </div>
        </div>
      ) : (
        <div className="flex items-center justify-between gap-2">
          <p className="flex min-w-0 items-center gap-2">
            <UserRound aria-hidden className="size-5 shrink-0 text-muted-foreground" />
            <span className="truncate">{shown?.name ?? 'Walk-in customer'}</span>
          </p>
          <div className="flex gap-1">
            {customer && (
              <Button variant="ghost" onClick={() => onChange(null)}>
                Walk-in
              </Button>
            )}
            <Button variant="outline" onClick={() => setChoosing(true)}>
              {customer ? 'Change' : 'Name the buyer'}
            </Button>
          </div>
        </div>
      )}
      {!customer && total >= 100_000 && (
        <p className="mt-1 text-sm text-muted-foreground">
          ₱1,000 or more: a VAT-registered buyer’s invoice names them, with their address and TIN.
        </p>
      )}
      {error?.map((message) => (
        <p key={message} role="alert" className="mt-1 text-sm text-destructive">
          {message}
        </p>
      ))}
    </div>
  );
}

/** The senior citizen's or PWD's discount: one toggle, then the ID's number and the name on it. */
function DiscountToggle({
  discount,
  onChange,
  errors,
}: {
  discount: BuyerDiscount;
  onChange: (discount: BuyerDiscount) => void;
  errors: Record<string, string[]>;
}) {
  const kinds = [
    { value: null, label: 'No discount' },
    { value: 'senior', label: 'Senior' },
    { value: 'pwd', label: 'PWD' },
  ] as const;
  return (
    <fieldset className="space-y-2 rounded-lg border p-3">
      <legend className="px-1 text-sm text-muted-foreground">Senior citizen / PWD</legend>
      <div className="grid grid-cols-3 gap-1" role="radiogroup" aria-label="Senior citizen or PWD discount">
        {kinds.map((kind) => (
          <Button
            key={kind.label}
            role="radio"
            aria-checked={discount.kind === kind.value}
            variant={discount.kind === kind.value ? 'default' : 'outline'}
            onClick={() => onChange({ ...discount, kind: kind.value })}
          >
            {kind.label}
          </Button>
        ))}
      </div>
      {discount.kind && (
        <div className="grid gap-2">
          {BUYER_ID_FIELDS.map((field, index) => (
            <div key={field.id} className="space-y-1">
              <Label htmlFor={field.id}>{field.label}</Label>
              <Input
                id={field.id}
                autoFocus={index === 0}
                value={discount[field.key]}
                maxLength={field.maxLength}
                autoComplete="off"
                onChange={(event) => onChange({ ...discount, [field.key]: event.target.value })}
                aria-invalid={Boolean(errors[field.error])}
              />
              <FieldMessages messages={errors[field.error]} />
            </div>
          ))}
        </div>
      )}
    </fieldset>
  );
}

/** What a senior citizen's or PWD's ID gives the sale, each field with the server's name for its messages. */
const BUYER_ID_FIELDS = [
  { key: 'idNumber', id: 'counter-discount-id', label: 'ID number', maxLength: 40, error: 'buyer_discount_id_number' },
  { key: 'name', id: 'counter-discount-name', label: 'Name on the ID', maxLength: 200, error: 'buyer_discount_name' },
] as const;

function FieldMessages({ messages }: { messages?: string[] }) {
  return messages?.map((message) => (
    <p key={message} role="alert" className="text-sm text-destructive">
      {message}
    </p>
  ));
}

/**
 * Paying, on the same screen: the cash received (its keypad opens at once; the likely notes a tap
 * each) and the change due; GCash, Maya, QR Ph or a card, each with its amount (the rest of the
 * total to start with) and its reference — several make a split, cash paying what they leave.
 */
function PayPanel({
  total,
  payment,
  onChange,
  credit,
  settlement,
  saving,
  onBack,
  onComplete,
  refusal,
}: {
  total: number;
  payment: Payment;
  onChange: (payment: Payment) => void;
  /** The buyer's credit on account, in centavos: offered as a tender when there is some. */
  credit: number;
  settlement: ReturnType<typeof settle>;
  saving: boolean;
  onBack: () => void;
  onComplete: () => void;
  refusal: { message: string; errors: Record<string, string[]> } | null;
}) {
  const focusReference = useRef<number | null>(null);
  useEffect(() => {
    if (focusReference.current === null) return;
    document.getElementById(`counter-tender-${focusReference.current}-reference`)?.focus();
    focusReference.current = null;
  });
  const setOther = (at: number, changes: Partial<OtherTender>) => onChange({ ...payment, others: changeAt(payment.others, at, changes) });
  const addOther = (method: OtherTender['method'], most = Number.POSITIVE_INFINITY) => {
    // What is not paid yet: after the other tenders, and the cash already counted when it does not cover the rest.
    const open = Math.max(0, total - settlement.others);
    const rest = Math.min(most, settlement.received > 0 && settlement.received < open ? open - settlement.received : open);
    if (TENDER_NEEDS[method].includes('reference')) focusReference.current = payment.others.length;
    onChange({
      ...payment,
      others: [...payment.others, { method, amount: rest > 0 ? centavosToPesos(rest).toFixed(2) : '', reference: '' }],
    });
  };
  return (
    <form
      aria-label="Payment"
      className="space-y-3 rounded-lg border p-3"
      onSubmit={(event) => {
        event.preventDefault();
        onComplete();
      }}
    >
      {payment.others.map((tender, at) => (
        <div key={at} className="space-y-1 rounded-md bg-muted/50 p-2">
          <div className="flex items-center justify-between">
            <span className="font-medium">{methodLabel(tender.method)}</span>
            <Button
              type="button"
              variant="ghost"
              size="icon"
              aria-label={`Remove the ${methodLabel(tender.method)} tender`}
              onClick={() => onChange({ ...payment, others: payment.others.filter((_, index) => index !== at) })}
            >
              <X aria-hidden />
            </Button>
          </div>
          <div className="grid grid-cols-2 gap-2">
            <div className="space-y-1">
              <Label htmlFor={`counter-tender-${at}-amount`}>Amount</Label>
              <Input
                id={`counter-tender-${at}-amount`}
                inputMode="decimal"
                value={tender.amount}
                onFocus={(event) => event.currentTarget.select()}
                onChange={(event) => setOther(at, { amount: event.target.value })}
              />
            </div>
            {TENDER_NEEDS[tender.method].includes('reference') && (
              <div className="space-y-1">
                <Label htmlFor={`counter-tender-${at}-reference`}>{tender.method === 'card' ? 'Approval code' : 'Reference no.'}</Label>
                <Input
                  id={`counter-tender-${at}-reference`}
                  value={tender.reference}
                  autoComplete="off"
                  maxLength={100}
                  inputMode={tender.method === 'card' ? 'text' : 'numeric'}
                  onChange={(event) => setOther(at, { reference: event.target.value })}
                />
              </div>
            )}
          </div>
        </div>
      ))}
      <div className="space-y-1">
        <Label htmlFor="counter-cash-received">
          Cash received{settlement.others > 0 && settlement.cash > 0 ? ` (cash due ${formatCentavos(settlement.cash)})` : ''}
        </Label>
        <Input
          id="counter-cash-received"
          autoFocus
          inputMode="decimal"
          className="h-12 text-lg tabular-nums"
          value={payment.received}
          autoComplete="off"
          placeholder={settlement.cash > 0 ? centavosToPesos(settlement.cash).toFixed(2) : '0.00'}
          onChange={(event) => onChange({ ...payment, received: event.target.value })}
        />
        {settlement.cash > 0 && (
          <div className="flex flex-wrap gap-1">
            <Button
              type="button"
              variant="outline"
              onClick={() => onChange({ ...payment, received: centavosToPesos(settlement.cash).toFixed(2) })}
            >
              Exact
            </Button>
            {likelyNotes(settlement.cash).map((note) => (
              <Button
                key={note}
                type="button"
                variant="outline"
                onClick={() => onChange({ ...payment, received: centavosToPesos(note).toFixed(2) })}
              >
                {formatCentavos(note)}
              </Button>
            ))}
          </div>
        )}
      </div>
      <ChangeDue centavos={settlement.change} testId="counter-change" className="text-2xl" />
      <div className="flex flex-wrap gap-1" aria-label="Other ways to pay">
        {COUNTER_METHODS.map((method) => (
          <Button key={method} type="button" variant="outline" onClick={() => addOther(method)}>
            {methodLabel(method)}
          </Button>
        ))}
        {credit > 0 && !payment.others.some((tender) => tender.method === ACCOUNT_CREDIT) && (
          <Button type="button" variant="outline" onClick={() => addOther(ACCOUNT_CREDIT, credit)}>
            {methodLabel(ACCOUNT_CREDIT)} ({formatCentavos(credit)})
          </Button>
        )}
      </div>
      {(settlement.problem && payment.received.trim() !== '') || payment.others.length > 0
        ? settlement.problem && <p className="text-sm text-muted-foreground">{settlement.problem}</p>
        : null}
      {refusal && (
        <div role="alert" className="rounded-md border border-destructive/40 bg-destructive/10 p-2 text-sm text-destructive">
          <p>{refusal.message}</p>
          {Object.entries(refusal.errors)
            .filter(([field]) => field.startsWith('payment') || field.startsWith('lines'))
            .flatMap(([, messages]) => messages)
            .map((message) => (
              <p key={message}>{message}</p>
            ))}
        </div>
      )}
      <div className="flex gap-2">
        <Button type="button" variant="outline" className="h-14" onClick={onBack}>
          Back
        </Button>
        <Button type="submit" className={cn('h-14 flex-1 text-lg')} disabled={settlement.problem !== null || saving}>
          <Printer aria-hidden /> {saving ? 'Saving…' : 'Complete sale'}
        </Button>
      </div>
    </form>
  );
}
