/**
 * What a document kind does to the stock ledger, to the lines it names and to money, declared
 * once beside its definition (`document.effects`). The audit (`server/documents/audit.ts`) checks
 * every kind's movements, goods in transit, fulfilled lines and settled balances from these
 * declarations alone, so a new kind is audited as it declares, without the audit naming it.
 */

/** Which way each line's base quantity moves a figure: in (1), out (-1), or not at all (0). */
export type Sign = -1 | 0 | 1;

/** What a kind moves at one place, for each of its lines. */
export interface StockEffect {
  /** Where: the document's own branch or warehouse, or the `from_` or `to_` end of goods moved between two places. */
  at: 'own' | 'from' | 'to';
  /** Each line's base quantity on hand there: added, taken away, or not moved. A signed line (`lines: 'adjustments'`) moves by its sign. */
  onHand: Sign;
  /** Each line's base quantity in transit to there: added, taken away, or not moved. */
  inTransit: Sign;
  /**
   * Moves only once the document is closed in `status`, and only the rest of each line: its base
   * quantity less what the unvoided lines of `takenBy` (a document type) that name it hold — a
   * transfer closed short writes off what did not arrive. Absent: each line's whole base quantity,
   * moved when the document is made and moved back when it is voided.
   */
  rest?: { status: string; takenBy: string };
  /**
   * Each line's base quantity quarantined there (on hand, but neither sold nor moved until released
   * or written off): put into quarantine, taken out of it, or not moved (absent).
   */
  quarantined?: Sign;
  /**
   * Moves only the lines whose disposition is one of these (a sales return's restocked lines; its
   * written-off ones move nothing). Absent: every line.
   */
  dispositions?: readonly string[];
  /** Moves only the lines whose reason is one of these (a stock adjustment's releases from quarantine). Absent: every line. */
  reasons?: readonly string[];
}

/** A line as the effects read it: its item, its base quantity (signed on a stock adjustment), its reason and disposition. */
export interface EffectLine {
  itemId: number;
  baseQuantity: number;
  reason: string | null;
  disposition: string | null;
}

/** Whether an effect moves this line (its dispositions and reasons, where it names them). */
export const effectMoves = (effect: StockEffect, line: Pick<EffectLine, 'reason' | 'disposition'>): boolean =>
  (!effect.dispositions || effect.dispositions.includes(String(line.disposition))) &&
  (!effect.reasons || effect.reasons.includes(String(line.reason)));

/** Where a kind's `amount` goes while the kind is not void: into a figure of the document it names. */
export interface Settles {
  /** The resource it settles: `invoices`. */
  resource: string;
  /** Its field naming the settled document: `invoice_id`. */
  field: string;
  /** The settled document's figure its amount adds to: `amount_paid` (a payment) or `amount_adjusted` (a memorandum). */
  into: 'amount_paid' | 'amount_adjusted';
}

/**
 * What the goods a kind moves are worth, where it says (docs/costing.md); goods of a kind that
 * does not say, or of lines it does not cover, move at the item's moving average.
 */
export interface CostSource {
  /**
   * `amount`: each line's net amount, with its VAT where the business is not VAT-registered (what
   * a receipt paid); `unit-price`: each line's unit price by its quantity, where given (an opening
   * balance's imported cost); `source`: its share of what the line it names cost (a sales return's
   * goods come back at what they left with, a purchase return's leave at what the bill paid).
   */
  from: 'amount' | 'unit-price' | 'source';
  /** Only lines of these reasons; absent: every line. */
  reasons?: readonly string[];
  /**
   * `amount` only: a line fulfilling an order line that unvoided documents of this type bill (their
   * lines naming the same order line) is worth what those lines paid, unit for unit, not what it
   * says itself — a receipt's goods cost what the supplier's bill asks for them, once billed.
   */
  billedBy?: string;
}

export interface DocumentEffects {
  /** The places it moves goods at, one entry per place and way; absent: it moves no stock. */
  stock?: readonly StockEffect[];
  /** Its lines fulfil the lines they name (`source_line_id`): an unvoided line's quantity counts in the named line's `quantity_done`. */
  fulfils?: boolean;
  /** It is owed: `balance` is `total` less `amount_paid` and `amount_adjusted` (what the kinds settling it sum to), none once void. */
  owed?: boolean;
  /** Its `amount` settles the document it names (a payment, a memorandum). */
  settles?: Settles;
  /** What its goods are worth; absent: the item's moving average. */
  cost?: CostSource;
  /**
   * Its lines keep what the goods they move between places were worth as they left — the average
   * on its date — though the business holds as much as before (a transfer): each line's cost is
   * stamped, and stamped again when an earlier entry changes that average.
   */
  carries?: boolean;
}
