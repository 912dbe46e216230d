import { useRouter } from '@tanstack/react-router';
import { ArrowLeft } from 'lucide-react';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { z } from 'zod';
import { updatableFields, writableFields, type ResourceDefinition } from '../../../domain/resource';
import { createSchema, updateSchema } from '../../../domain/resource-schemas';
import { isShown, type Field } from '../../../domain/fields';
import { holdsAny, permissionName } from '../../../domain/permissions';
import { getResource } from '../../../domain/resources/registry';
import { fieldErrors, validationSummary } from '../../../domain/validation';
import { ApiError } from '../../lib/api';
import { amendCreate, clientKey, isClientKey, submitChange, type Settled } from '../../lib/outbox';
import { placeFieldsOf, placeInputOf, usePlaces, type PlaceInput } from '../../lib/places';
import type { ApiRecord } from '../../lib/resource-queries';
import { useActiveBusinessId, usePermissions } from '../../lib/session';
import { Button } from '../ui/button';
import { Checkbox } from '../ui/checkbox';
import { Label } from '../ui/label';
import { AfterFirstPaint } from '../ui/deferred';
import { ProgressBar } from '../ui/progress-bar';
import { FieldInput, initialValue, type FormValues } from './field-input';
import { formButtons, type FormButton } from './form-buttons';
import { DraftNotice, LeaveFormDialog, useFormDraft, withNames, type PickedNames } from './form-draft';
import { reportFailure, reportSettled } from './record-actions';
import { slots } from './slots';

// The app's content security policy forbids eval: zod is told not to try it (it would, to
// compile its object checks, and the browser reports each refused try).
z.config({ jitless: true });

export function startingValues(definition: ResourceDefinition, record?: Record<string, unknown>, copy = false): FormValues {
  const values: FormValues = Object.fromEntries(
    writableFields(definition).map(([name, field]) => [
      name,
      copy && field.unique ? initialValue(field, null) : initialValue(field, record?.[name]),
    ]),
  );
  const section = slots.resolve(definition, 'form.section');
  if (section?.holds(definition, false)) values[section.name] = section.start(definition, record);
  return values;
}

/** The body sent: what the form holds, with blank write-only fields (keep the secret) left out. */
export function formBody(definition: ResourceDefinition, values: FormValues, editing: boolean): Record<string, unknown> {
  const sent: Record<string, unknown> = {};
  for (const [name, field] of editing ? updatableFields(definition) : writableFields(definition)) {
    // A field not asked for with these values is sent empty: a brand chosen before the count's scope changed is not kept.
    const value = isShown(field, values) ? values[name] : null;
    if (field.writeOnly && editing && value === '') continue;
    if (field.kind === 'select' && value === '') sent[name] = null;
    else sent[name] = value;
  }
  const section = slots.resolve(definition, 'form.section');
  if (section?.holds(definition, editing)) {
    sent[section.name] = section.body(values[section.name]);
    Object.assign(sent, section.fields?.(values[section.name]));
  }
  return sent;
}

/**
 * Queues the create or update and waits for it. A record created on this device that has not
 * synced yet is edited in its queued create.
 */
async function save(
  definition: ResourceDefinition,
  businessId: number | null,
  sent: Record<string, unknown>,
  record: ApiRecord | undefined,
): Promise<Settled<ApiRecord> & { key: string }> {
  // The server is the one that validates. Offline there is none to ask, so the definition's own
  // rules say now what the server would say at sync (a blank required field, say).
  if (!navigator.onLine) {
    const checked = (record ? updateSchema(definition) : createSchema(definition)).safeParse(sent);
    const section = slots.resolve(definition, 'form.section');
    const sectionErrors =
      section?.check && section.holds(definition, record !== undefined) ? await section.check(sent[section.name], sent) : {};
    const errors = { ...(checked.success ? {} : fieldErrors(checked.error.issues)), ...sectionErrors };
    if (Object.keys(errors).length > 0) throw new ApiError(422, validationSummary(errors), errors);
  }
  const display = String(sent[definition.display] ?? record?.[definition.display] ?? '');
  const key = clientKey();
  if (!record) {
    const change = { businessId, resource: definition.name, action: 'create', recordId: key, method: 'POST', body: sent } as const;
    const settled = await submitChange<{ data: ApiRecord }>(
      { ...change, path: `/api/${definition.name}`, label: `Create ${definition.singular} ${display}` },
      key,
    );
    return { ...unwrap(settled), key };
  }
  const update = {
    businessId,
    resource: definition.name,
    action: 'update',
    recordId: record.id,
    method: 'PATCH',
    path: `/api/${definition.name}/${record.id}`,
    body: sent,
    baseVersion: isClientKey(record.id) ? undefined : record.version,
    label: `Update ${definition.singular} ${display}`,
  } as const;
  const settled = isClientKey(record.id)
    ? await amendCreate<{ data: ApiRecord }>(record.id, sent, update)
    : await submitChange<{ data: ApiRecord }>(update, key);
  return { ...unwrap(settled), key };
}

const unwrap = (settled: Settled<{ data: ApiRecord }>): Settled<ApiRecord> =>
  settled.sent ? { sent: true, data: settled.data.data } : settled;

/** Messages keyed by field, nested ones (`sale_discounts.0.quantity`) under their field. */
export function messagesByField(errors: Record<string, string[]>): Record<string, string[]> {
  const grouped: Record<string, string[]> = {};
  for (const [key, messages] of Object.entries(errors)) (grouped[key.split('.')[0]] ??= []).push(...messages);
  return grouped;
}

/**
 * The generic create and edit form: fields from the definition and the resource's form section
 * (a document's lines), Back and "Save {singular}" / "Update {singular}", a progress bar while
 * busy. On success a toast, then `onSaved`; with "Return here" checked a create clears the form
 * instead. A refusal keeps what was typed and shows the server's messages under their fields.
 * What is typed is kept on the device as the draft of screen `draftKey` until it is saved, and
 * leaving the form with changes not saved asks first (form-draft.tsx).
 */
export function RecordForm({
  definition,
  record,
  initial,
  draftKey,
  known,
  onSaved,
  preface,
  hide,
}: {
  definition: ResourceDefinition;
  /** The record being edited; none when creating. */
  record?: ApiRecord;
  initial: FormValues;
  /** The screen's draft, in the active business: `invoices/create`, `invoices/create/from/12`, `invoices/7/edit`. */
  draftKey: string;
  /** Names for the references `initial` starts with (a form made from a source document). */
  known?: Record<string, unknown>;
  /** After the server took it, or it was queued on this device: the record's id (a client key until it syncs), and what the form held. */
  onSaved: (saved: { id: number | string }, values: FormValues) => void;
  /** Shown above the fields, given what the form holds now and a way to fill a field (a due date from the terms). */
  preface?: (values: FormValues, fill: (name: string, value: unknown) => void) => ReactNode;
  /** Default buttons this screen does without. */
  hide?: readonly FormButton[];
}) {
  const editing = record !== undefined;
  // The change is based on the record as the form opened with it, whatever loads meanwhile.
  const [base] = useState(record);
  const router = useRouter();
  const businessId = useActiveBusinessId();
  const [values, setValues] = useState<FormValues>(initial);
  // What the form started with, or was cleared to: what it holds differs from it, it has changes.
  const [start, setStart] = useState<FormValues>(initial);
  const [names, setNames] = useState<PickedNames>({});
  const { draft, stale, leaving, saved } = useFormDraft({
    draftKey,
    values,
    start,
    names,
    version: base?.version,
    label: `${editing ? 'Edit' : 'Create'} ${definition.singular}`,
    // Over what the form starts with: a field added since the draft was kept starts as it would.
    take: (held) => {
      setValues((current) => ({ ...current, ...held.values }));
      setNames(held.names);
    },
  });
  const [errors, setErrors] = useState<Record<string, string[]>>({});
  const [busy, setBusy] = useState(false);
  const [returnHere, setReturnHere] = useState(false);
  const fieldErrors = messagesByField(errors);
  const slot = slots.resolve(definition, 'form.section');
  const section = slot?.holds(definition, editing) ? slot : undefined;
  const unplaced = Object.entries(fieldErrors).filter(([name]) => !(name in definition.fields) && name !== section?.name);
  const buttons = formButtons(editing, hide);
  const permissions = usePermissions();
  // A field naming a place offers the places the user may use there (lib/places.ts), from the
  // business's list of places; while that is unknown, it searches them as any other record (and
  // so does another end, where only the user's own places are known).
  const { places, complete } = usePlaces();
  const placeFields = placeFieldsOf(definition);
  const placeInput = (name: string): PlaceInput | undefined =>
    places && placeFields[name] && (complete || placeFields[name].operates)
      ? placeInputOf(placeFields[name], places, values, name)
      : undefined;
  // A picker the user may not search is left out when the field may stay blank; a required one
  // stays, and its search says why it finds nothing. Places are offered from their own list.
  const usable = (name: string, field: Field) =>
    (!field.heldBy || holdsAny(permissions, [field.heldBy])) &&
    (!field.references ||
      field.required ||
      placeInput(name) !== undefined ||
      holdsAny(permissions, [permissionName('view', getResource(field.references).permission)]));
  const change = (name: string, value: unknown, shown?: string) => {
    if (shown !== undefined) setNames((current) => ({ ...current, [name]: { id: value, display: shown } }));
    setValues((current) => {
      // Another type of place: the place picked of the type before goes.
      const pairedId = placeFields[name]?.idField;
      return pairedId && current[name] !== value ? { ...current, [name]: value, [pairedId]: null } : { ...current, [name]: value };
    });
  };
  const startAgain = (fresh: FormValues) => {
    setStart(fresh);
    setValues(fresh);
    setNames({});
  };
  // A type whose records the user may not search (a kind of document a memo is about) is not
  // offered: its picker would find nothing. The type the record holds stays, so an edit shows it.
  const offered = (name: string, field: Field): Field => {
    const picks = Object.values(definition.fields).find((other) => other.referencesBy?.field === name)?.referencesBy?.resources;
    if (!picks || !field.options) return field;
    const searchable = (type: string) =>
      !Object.hasOwn(picks, type) || holdsAny(permissions, [permissionName('view', getResource(picks[type]).permission)]);
    return { ...field, options: field.options.filter((option) => option.value === record?.[name] || searchable(option.value)) };
  };
  const formRef = useRef<HTMLFormElement>(null);
  // After a refused save, the first field in error is brought into view and focused.
  useEffect(() => {
    if (Object.keys(errors).length === 0) return;
    const first = formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]');
    const target = first ?? formRef.current?.querySelector<HTMLElement>('[role="alert"]');
    target?.scrollIntoView({ block: 'center', behavior: 'smooth' });
    first?.focus({ preventScroll: true });
  }, [errors]);

  const submit = async () => {
    setBusy(true);
    setErrors({});
    try {
      const sent = formBody(definition, values, editing);
      const settled = await save(definition, businessId, sent, base);
      // Sent or queued, it is saved: its draft goes.
      void draft.discard();
      reportSettled(settled, `${definition.singular} ${editing ? 'updated' : 'created'} successfully.`);
      if (!editing && returnHere) startAgain(startingValues(definition));
      else {
        saved();
        onSaved({ id: settled.sent ? settled.data.id : (base?.id ?? settled.key) }, values);
      }
    } catch (error) {
      if (error instanceof ApiError && error.status === 422) setErrors(error.errors);
      else if (error instanceof ApiError && error.status === 412) setErrors({ _: [error.message] });
      else reportFailure(error);
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <form
        ref={formRef}
        noValidate
        aria-busy={busy}
        className="space-y-6"
        onSubmit={(event) => {
          event.preventDefault();
          void submit();
        }}
        onKeyDown={(event) => {
          // Ctrl+Enter (⌘+Enter) saves from any field, as in most forms people type into all day.
          if (event.key !== 'Enter' || !(event.ctrlKey || event.metaKey) || busy) return;
          event.preventDefault();
          formRef.current?.requestSubmit();
        }}
      >
        <ProgressBar active={busy} />
        <DraftNotice
          savedAt={draft.savedAt}
          stale={stale}
          singular={definition.singular}
          onDiscard={() => {
            startAgain(start);
            void draft.discard();
          }}
        />
        {(unplaced.length > 0 || Object.keys(fieldErrors).length > 0) && (
          <div role="alert" className="rounded-md border border-destructive/40 bg-destructive/10 p-3 text-sm text-destructive">
            {unplaced.length > 0 ? unplaced.flatMap(([, messages]) => messages).join(' ') : 'Please correct the fields marked below.'}
          </div>
        )}
        {preface?.(values, (name, value) => setValues((current) => ({ ...current, [name]: value })))}
        {/* What leads the form (a document's provisional numbers) is painted first; its fields, its
            section (a document's lines) and its buttons follow. */}
        <AfterFirstPaint>
          <div className="grid gap-x-6 gap-y-5 md:grid-cols-2">
            {(editing ? updatableFields(definition) : writableFields(definition))
              // A place field left out still shows when the server said something of it.
              .filter(
                ([name, field]) =>
                  usable(name, field) && isShown(field, values) && (placeInput(name)?.as !== 'hidden' || name in fieldErrors),
              )
              .map(([name, field]) => (
                <div key={name} className={field.kind === 'textarea' || field.kind === 'discounts' ? 'md:col-span-2' : undefined}>
                  <FieldInput
                    name={name}
                    field={offered(name, field)}
                    values={values}
                    record={withNames(record ?? known, names, values)}
                    errors={fieldErrors[name] ?? []}
                    editing={editing}
                    onChange={change}
                    place={placeInput(name)}
                  />
                </div>
              ))}
          </div>
          {section && (
            <section.Editor
              definition={definition}
              value={values[section.name]}
              onChange={(value) => setValues((current) => ({ ...current, [section.name]: value }))}
              errors={errors}
              values={values}
            />
          )}
          <div className="flex flex-wrap items-center gap-3 border-t pt-4">
            {buttons.includes('back') && (
              <Button type="button" variant="outline" onClick={() => router.history.back()} disabled={busy}>
                <ArrowLeft aria-hidden /> Back
              </Button>
            )}
            {buttons.includes('save') && (
              <Button type="submit" disabled={busy}>
                {busy ? 'Saving…' : `${editing ? 'Update' : 'Save'} ${definition.singular}`}
              </Button>
            )}
            {buttons.includes('save') && (
              <span className="hidden text-xs text-muted-foreground md:inline">
                or <kbd className="rounded border px-1 font-sans">Ctrl</kbd>+<kbd className="rounded border px-1 font-sans">Enter</kbd>
              </span>
            )}
            {buttons.includes('return-here') && (
              <div className="flex min-h-11 items-center gap-2">
                <Checkbox id="return-here" checked={returnHere} onCheckedChange={(checked) => setReturnHere(checked === true)} />
                <Label htmlFor="return-here" className="font-normal">
                  Return here to add another
                </Label>
              </div>
            )}
          </div>
        </AfterFirstPaint>
      </form>
      {/* Outside the form: its keys (Ctrl+Enter) are not the form's. */}
      <LeaveFormDialog
        open={leaving.status === 'blocked'}
        onStay={() => leaving.reset?.()}
        onDiscard={() => {
          void draft.discard();
          leaving.proceed?.();
        }}
        onLeave={() => leaving.proceed?.()}
      />
    </>
  );
}
