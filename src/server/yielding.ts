/**
 * Heavy work (an import's rows, a zip of a whole business) runs on the one event loop that answers
 * every other request. Work that never waits on a socket or a file never lets go of it: SQLite's
 * statements return at once, so an import of 100,000 rows would hold every list and sign-in until
 * it ended. Such work calls `giveWay()` often (every row, every batch). Once the work has run
 * `TURN_MS` since its turn began, `giveWay` waits for a later turn of the event loop, in which the
 * requests that arrived meanwhile are read and answered first.
 *
 * The turns are shared: in each turn of the event loop one piece of heavy work runs, the waiting
 * ones taking turns in the order they gave way, so four exports at once hold a list up no longer
 * than one does — each just gets a quarter of the turns.
 */

/** How long heavy work runs before other requests get a turn: short beside what a list takes to answer under load. */
export const TURN_MS = 5;

/** Heavy work that gave way, first come first served. */
const waiting: (() => void)[] = [];
let turnStarted = performance.now();
let turnAsked = false;

/** Called in a turn of its own (setImmediate: after the requests that were waiting were read): the first in line goes on. */
function nextTurn(): void {
  turnAsked = false;
  const next = waiting.shift();
  if (waiting.length > 0) askForTurn();
  turnStarted = performance.now();
  next?.();
}

function askForTurn(): void {
  if (turnAsked) return;
  turnAsked = true;
  setImmediate(nextTurn);
}

/** Lets the requests waiting for the event loop go first, when heavy work has held it `TURN_MS` or more. */
export async function giveWay(): Promise<void> {
  if (performance.now() - turnStarted < TURN_MS) return;
  await new Promise<void>((resolve) => {
    waiting.push(resolve);
    askForTurn();
  });
}
