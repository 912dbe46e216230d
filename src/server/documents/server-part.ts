import type { ResourceDefinition } from '../../domain/resource';
import type { Transition } from '../../domain/lifecycle';
import type { Reversal, StepWork } from './document-store';
import type { ResourceStore } from '../resources/store';

/**
 * A resource's part on the server, beside its declaration: the store that keeps its rules, and
 * what its lifecycle's transitions do beyond what the declaration already says. The modules that
 * serve resources export their parts; `server/composition.ts` registers them. A resource needs a part
 * only for rules its declaration cannot say: a payment or memorandum (`effects.settles`) and a
 * plain business table are served from their declarations alone, and a void undoes the declared
 * effects by itself (`undo-effects.ts`) — a part's `void` only adds its kind's own work.
 */
export interface ServerPart {
  definition: ResourceDefinition;
  store: ResourceStore;
  /** Work of undoing transitions (void, cancel, close) beyond the status and the declared effects. */
  reversals?: Partial<Record<Transition['name'], Reversal>>;
  /** Work of forward transitions (a count's post) beyond the status. */
  steps?: Partial<Record<Transition['name'], StepWork>>;
}
