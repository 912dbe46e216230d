import { createElement, type Attributes, type ComponentType, type ReactElement } from 'react';
import type { PermissionAction } from '../../../domain/permissions';
import type { ResourceDefinition } from '../../../domain/resource';
import type { ApiRecord } from '../../lib/resource-queries';

/**
 * Slots: what a resource, or a kind of resource, puts in place of a generic screen or of a part of
 * one. The generic screens only read slots; the app registers them when it is put together, so
 * the generic screens never depend on what fills them.
 */

export interface ScreenProps {
  definition: ResourceDefinition;
}

export interface RecordProps {
  definition: ResourceDefinition;
  record: ApiRecord;
}

export interface CellProps extends RecordProps {
  /** The column: a field name, `id`, `created_at` or `updated_at`. */
  name: string;
  /** The cell as the generic list shows it. */
  text: string;
}

/** Who may press a screen's buttons. */
export interface ScreenAccess {
  /** Per action, the permissions any one of which shows its button; else `{action}-{prefix}`. */
  required?: Partial<Record<PermissionAction, readonly string[]>>;
  /** False: every button shows whatever the user holds, and the server alone decides. */
  check?: boolean;
}

export interface ActionProps extends RecordProps {
  /** The screen's own rule for a button of `action` (its access slot applied). */
  allowed: (action: PermissionAction) => boolean;
}

/** A part of the form beyond its fields (a document's lines), kept in the form's values under `name`. */
export interface FormSection {
  name: string;
  /** Whether the form holds it: when creating, and when editing. */
  holds: (definition: ResourceDefinition, editing: boolean) => boolean;
  /** Its value at the start: from the record edited or copied, or a fresh one. */
  start: (definition: ResourceDefinition, record?: Record<string, unknown>) => unknown;
  /** Its value as the body sends it. */
  body: (value: unknown) => unknown;
  /** Fields of the body its value decides, sent beside it (a payment's amount and method, from its tenders). */
  fields?: (value: unknown) => Record<string, unknown>;
  /**
   * What the server would refuse in it as sent (`sent`; `body`, the whole body, with what its
   * `fields` put beside it), by full key (`tenders.0.reference`): said before queuing offline.
   */
  check?: (sent: unknown, body: Record<string, unknown>) => Promise<Record<string, string[]>>;
  Editor: ComponentType<{
    definition: ResourceDefinition;
    value: unknown;
    onChange: (value: unknown) => void;
    /** The server's messages, by their full key (`lines.0.quantity`). */
    errors: Record<string, string[]>;
    /** The form's other values as they are now (a document's date, party and place price its lines). */
    values: Record<string, unknown>;
  }>;
}

export interface SlotTypes {
  /** Whole screens, in place of the generic ones. */
  list: ComponentType<ScreenProps>;
  create: ComponentType<ScreenProps>;
  view: ComponentType<ScreenProps & { id: string }>;
  edit: ComponentType<ScreenProps & { id: string }>;
  /** The list's small title, above its main title; none when it gives nothing. */
  'list.small-title': (definition: ResourceDefinition) => string | undefined;
  /** A list cell. */
  'list.cell': ComponentType<CellProps>;
  'list.access': ScreenAccess;
  /** Buttons of the list's toolbar after Export CSV and Print, for who may view it (a payments list's tenders for reconciliation). */
  'list.actions': ComponentType<ScreenProps>;
  /** What follows the singular in the view's title, in place of the record's display. */
  'view.title': (record: ApiRecord) => string;
  /** Beside the view's title (a document's status). */
  'view.badge': ComponentType<RecordProps>;
  /** Buttons of the view's action bar after Edit. */
  'view.actions': ComponentType<ActionProps>;
  /** The view's print action, in place of a plain Print (a document's: A4 or an 80 mm receipt). */
  'view.print': ComponentType<RecordProps>;
  /** Whether the view offers Delete for the record. */
  'view.deletable': (definition: ResourceDefinition, record: ApiRecord) => boolean;
  /** What the screen is opened for, above the details (a stock count's sheet: counters come to count). */
  'view.lead': ComponentType<RecordProps>;
  /** Detail rows after the fields (a user's roles). */
  'view.details': ComponentType<RecordProps>;
  /** Sections under the details (a document's lines, a stock's movements). */
  'view.sections': ComponentType<RecordProps>;
  /** The attached files of a record the server has. */
  'view.files': ComponentType<RecordProps>;
  'view.access': ScreenAccess;
  'form.section': FormSection;
  'create.access': ScreenAccess;
  'edit.access': ScreenAccess;
}

export type SlotName = keyof SlotTypes;

/** Kinds of resource a slot can be registered for, in the order they are asked. */
export const KINDS = {
  document: (definition: ResourceDefinition) => definition.document !== undefined,
  attachments: (definition: ResourceDefinition) => definition.attachments,
} as const;
export type Kind = keyof typeof KINDS;

/** Whom a registration is for: one resource by name, every resource of a kind, or every resource. */
export type SlotTarget = { resource: string } | { kind: Kind } | 'default';

const targetKey = (target: SlotTarget) =>
  target === 'default' ? 'default' : 'resource' in target ? `resource:${target.resource}` : `kind:${target.kind}`;

export interface SlotRegistry {
  register<K extends SlotName>(target: SlotTarget, slot: K, value: SlotTypes[K]): void;
  /** The resource's own slot, else its first kind's, else the default; undefined when none is registered. */
  resolve<K extends SlotName>(definition: ResourceDefinition, slot: K): SlotTypes[K] | undefined;
}

export function createSlotRegistry(): SlotRegistry {
  const entries = new Map<string, unknown>();
  return {
    register(target, slot, value) {
      const key = `${targetKey(target)}|${slot}`;
      if (entries.has(key)) throw new Error(`The slot ${slot} is registered twice for ${targetKey(target)}`);
      entries.set(key, value);
    },
    resolve<K extends SlotName>(definition: ResourceDefinition, slot: K) {
      const kinds = (Object.keys(KINDS) as Kind[]).filter((kind) => KINDS[kind](definition));
      const targets: SlotTarget[] = [{ resource: definition.name }, ...kinds.map((kind) => ({ kind })), 'default'];
      for (const target of targets) {
        const key = `${targetKey(target)}|${slot}`;
        if (entries.has(key)) return entries.get(key) as SlotTypes[K];
      }
      return undefined;
    },
  };
}

/** The app's slots, filled in by `src/client/screen-parts.tsx` before any generic screen renders. */
export const slots = createSlotRegistry();

/** Slots that hold a component, rendered in their place by `renderSlot`. */
type ComponentSlot =
  | 'list'
  | 'create'
  | 'view'
  | 'edit'
  | 'list.cell'
  | 'list.actions'
  | 'view.badge'
  | 'view.actions'
  | 'view.print'
  | 'view.lead'
  | 'view.details'
  | 'view.sections'
  | 'view.files';
type SlotProps<K extends ComponentSlot> = SlotTypes[K] extends ComponentType<infer P> ? P : never;

/** The component registered for the slot, given the definition and `props`; undefined when none is. */
export function renderSlot<K extends ComponentSlot>(
  definition: ResourceDefinition,
  name: K,
  props: Omit<SlotProps<K>, 'definition'> & Attributes,
): ReactElement | undefined {
  const component = slots.resolve(definition, name) as ComponentType<Record<string, unknown>> | undefined;
  return component && createElement(component, { ...props, definition });
}
