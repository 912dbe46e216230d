/**
 * The walk-in customer: a sale to no one in particular goes to the business's contact of that
 * name. Bodega keeps no mark for it, so its name says it — "Walk-in customer", "Walk-in",
 * "WALK IN" — read the same way by the counter (which sells to it unless the cashier names a
 * buyer), the printed invoice (which leaves such a buyer blank lines) and the server (which gives
 * every business one).
 */

/** The name a business's walk-in customer is given. */
export const WALK_IN_NAME = 'Walk-in customer';

/** Whether a contact's name makes it the walk-in customer: it starts with "walk-in" (or "walk in"), in any case. */
export const isWalkInName = (name: string): boolean => /^walk[\s-]*in\b/i.test(name.trim());
