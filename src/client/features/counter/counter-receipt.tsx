import { CheckCircle2, Printer } from 'lucide-react';
import { useEffect, useRef } from 'react';
import { getResource } from '../../../domain/resources/registry';
import { printDocument } from '../../components/documents/document-print';
import { DocumentPrintout } from '../../components/documents/document-printout';
import { usePendingDocument } from '../../components/documents/pending-lines';
import { Button } from '../../components/ui/button';
import { useActiveBusinessId } from '../../lib/session';
import { ChangeDue } from './change-due';
import type { ApiRecord } from '../../lib/resource-queries';

const invoices = getResource('invoices');

/** A sale just completed: the invoice (as the server answered it, or as queued on this device) and the cash figures. */
export interface SaleDone {
  record: ApiRecord;
  /** Centavos. */
  total: number;
  received: number;
  change: number;
  /** The server has it; else it is in the outbox. */
  sent: boolean;
}

/**
 * The end of a sale: its number, the change to hand back in large type, the receipt printed at once
 * on the 80 mm roll (again on a tap), and the next sale a tap — or a scan — away. A sale queued
 * on this device prints with the number it took from the device's block; one that took none (the
 * device held no block) prints once it syncs.
 */
export function CounterReceipt({ done, onNext }: { done: SaleDone; onNext: () => void }) {
  const { record } = done;
  const number = typeof record.number === 'string' && record.number !== '' ? record.number : null;
  // A queued sale prints once its lines are priced here, as its printed copy shows them.
  const { unpriced } = usePendingDocument(invoices, record);
  const printable = number !== null && !unpriced;
  const businessId = useActiveBusinessId();
  // Each print counted first: the receipt printed at once is the original, "Print again" a reprint.
  const printReceipt = () => void printDocument(businessId, invoices, record, 'receipt');
  const printed = useRef(false);
  useEffect(() => {
    if (!printable || printed.current) return;
    printed.current = true;
    printReceipt();
  });
  return (
    <>
      <section
        aria-label="Sale complete"
        className="space-y-3 rounded-lg border border-emerald-600/40 bg-emerald-50 p-3 dark:bg-emerald-950/30"
      >
        <p className="flex items-center gap-2 text-lg font-semibold">
          <CheckCircle2 aria-hidden className="size-6 text-emerald-700" /> Sale complete
        </p>
        <p data-testid="counter-number">
          {number ? (
            <>
              Invoice <span className="font-mono font-semibold">{number}</span>
            </>
          ) : (
            'Its number is given when it syncs.'
          )}
          {!done.sent && (
            <span className="block text-sm text-muted-foreground">Saved on this device: it is sent when the connection returns.</span>
          )}
        </p>
        {done.received > 0 && <ChangeDue centavos={done.change} testId="counter-change-due" className="text-3xl" />}
        <div className="flex gap-2">
          <Button variant="outline" className="h-14" disabled={!printable} onClick={printReceipt}>
            <Printer aria-hidden /> Print again
          </Button>
          <Button className="h-14 flex-1 text-lg" onClick={onNext}>
            New sale
          </Button>
        </div>
      </section>
      {/* Paper only: outside the panel, whose colours are the screen's. */}
      <DocumentPrintout definition={invoices} record={record} />
    </>
  );
}
