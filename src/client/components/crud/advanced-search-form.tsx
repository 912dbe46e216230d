import { useState } from 'react';
import type { ResourceDefinition } from '../../../domain/resource';
import { getResource } from '../../../domain/resources/registry';
import { Button } from '../ui/button';
import { Dialog, DialogClose, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '../ui/dialog';
import { Input } from '../ui/input';
import { ChoiceSelect, type Choice } from '../choices';
import { LabelledField } from '../labelled-field';
import type { ListState } from './list-state';
import { ReferencePicker } from './reference-picker';

export interface AdvancedSearchProps {
  definition: ResourceDefinition;
  state: ListState;
  onSearch: (changes: Partial<ListState>) => void;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

interface Draft {
  searches: Record<string, string>;
  order_by: 'asc' | 'desc';
  is_strict: boolean;
}

/** A yes-or-no field searched for either answer, as the server reads it. */
const YES_NO: readonly Choice[] = [
  { value: '1', label: 'Yes' },
  { value: '0', label: 'No' },
];
const ORDERS: readonly Choice[] = [
  { value: 'desc', label: 'Newest' },
  { value: 'asc', label: 'Oldest' },
];
const STRICT: readonly Choice[] = [
  { value: 'no', label: 'No' },
  { value: 'yes', label: 'Yes' },
];

function fieldLabel(definition: ResourceDefinition, name: string) {
  return name === 'id' ? 'ID' : (definition.fields[name]?.label ?? name);
}

/** The advanced search: "Search {plural}" with every search field, Order By, Is Strict, and Clear, Search, Close. */
export function AdvancedSearchForm({ definition, state, onSearch, open, onOpenChange: setOpen }: AdvancedSearchProps) {
  // Each opening starts from the list's search as it is (advanced-search-dialog.tsx remounts it).
  const [draft, setDraft] = useState<Draft>(() => ({
    searches: { ...state.searches },
    order_by: state.order_by,
    is_strict: state.is_strict,
  }));
  const set = (name: string, value: string) => setDraft((current) => ({ ...current, searches: { ...current.searches, [name]: value } }));

  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogContent className="max-h-[90svh] overflow-y-auto sm:max-w-lg">
        <DialogHeader>
          <DialogTitle>Search {definition.plural}</DialogTitle>
          <DialogDescription>Fill any fields; a record must match all of them.</DialogDescription>
        </DialogHeader>
        <form
          id="advanced-search"
          className="grid gap-4"
          onSubmit={(event) => {
            event.preventDefault();
            const searches = Object.fromEntries(Object.entries(draft.searches).filter(([, value]) => value.trim() !== ''));
            onSearch({ searches, order_by: draft.order_by, order_by_field_name: state.order_by_field_name, is_strict: draft.is_strict });
            setOpen(false);
          }}
        >
          {definition.search.map((name) => {
            const field = definition.fields[name];
            const id = `search-${name}`;
            const value = draft.searches[name] ?? '';
            return (
              <LabelledField key={name} id={id} label={fieldLabel(definition, name)}>
                {field?.kind === 'reference' && field.references ? (
                  <ReferencePicker
                    id={id}
                    target={getResource(field.references)}
                    value={value ? Number(value) : null}
                    onChange={(picked) => set(name, picked === null ? '' : String(picked))}
                  />
                ) : field?.kind === 'boolean' || field?.kind === 'select' ? (
                  <ChoiceSelect
                    id={id}
                    any
                    value={value}
                    onValueChange={(next) => set(name, next)}
                    choices={field.kind === 'boolean' ? YES_NO : (field.options ?? [])}
                  />
                ) : (
                  <Input
                    id={id}
                    type={field?.kind === 'date' ? 'date' : name === 'id' ? 'number' : 'text'}
                    value={value}
                    onChange={(event) => set(name, event.target.value)}
                  />
                )}
              </LabelledField>
            );
          })}
          <div className="grid grid-cols-2 gap-4">
            <LabelledField id="search-order-by" label="Order By">
              <ChoiceSelect
                id="search-order-by"
                value={draft.order_by}
                onValueChange={(order) => setDraft((current) => ({ ...current, order_by: order as 'asc' | 'desc' }))}
                choices={ORDERS}
              />
            </LabelledField>
            <LabelledField id="search-is-strict" label="Is Strict">
              <ChoiceSelect
                id="search-is-strict"
                value={draft.is_strict ? 'yes' : 'no'}
                onValueChange={(strict) => setDraft((current) => ({ ...current, is_strict: strict === 'yes' }))}
                choices={STRICT}
              />
            </LabelledField>
          </div>
        </form>
        <DialogFooter className="gap-2">
          <Button type="button" variant="outline" onClick={() => setDraft({ searches: {}, order_by: 'desc', is_strict: false })}>
            Clear
          </Button>
          <DialogClose asChild>
            <Button type="button" variant="outline">
              Close
            </Button>
          </DialogClose>
          <Button type="submit" form="advanced-search">
            Search
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
