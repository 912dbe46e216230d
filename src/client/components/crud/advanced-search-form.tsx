import { useState } from 'react';
import type { ResourceDefinition } from '../../../domain/resource';
import { getResource } from '../../../domain/resources/registry';
import { Button } from '../ui/button';
import { Dialog, DialogClose, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '../ui/dialog';
import { Input } from '../ui/input';
import { Label } from '../ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '../ui/select';
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
              <div key={name} className="grid gap-1.5">
                <Label htmlFor={id}>{fieldLabel(definition, name)}</Label>
                {field?.kind === 'reference' && field.references ? (
                  <ReferencePicker
                    id={id}
                    target={getResource(field.references)}
                    value={value ? Number(value) : null}
                    onChange={(picked) => set(name, picked === null ? '' : String(picked))}
                  />
                ) : field?.kind === 'boolean' || field?.kind === 'select' ? (
                  <Select value={value || 'any'} onValueChange={(next) => set(name, next === 'any' ? '' : next)}>
                    <SelectTrigger id={id} className="w-full">
                      <SelectValue />
                    </SelectTrigger>
                    <SelectContent>
                      <SelectItem value="any">Any</SelectItem>
                      {(field.kind === 'boolean'
                        ? [
                            { value: '1', label: 'Yes' },
                            { value: '0', label: 'No' },
                          ]
                        : (field.options ?? [])
                      ).map((option) => (
                        <SelectItem key={option.value} value={option.value}>
                          {option.label}
                        </SelectItem>
                      ))}
                    </SelectContent>
                  </Select>
                ) : (
                  <Input
                    id={id}
                    type={field?.kind === 'date' ? 'date' : name === 'id' ? 'number' : 'text'}
                    value={value}
                    onChange={(event) => set(name, event.target.value)}
                  />
                )}
              </div>
            );
          })}
          <div className="grid grid-cols-2 gap-4">
            <div className="grid gap-1.5">
              <Label htmlFor="search-order-by">Order By</Label>
              <Select
                value={draft.order_by}
                onValueChange={(order) => setDraft((current) => ({ ...current, order_by: order as 'asc' | 'desc' }))}
              >
                <SelectTrigger id="search-order-by" className="w-full">
                  <SelectValue />
                </SelectTrigger>
                <SelectContent>
                  <SelectItem value="desc">Newest</SelectItem>
                  <SelectItem value="asc">Oldest</SelectItem>
                </SelectContent>
              </Select>
            </div>
            <div className="grid gap-1.5">
              <Label htmlFor="search-is-strict">Is Strict</Label>
              <Select
                value={draft.is_strict ? 'yes' : 'no'}
                onValueChange={(strict) => setDraft((current) => ({ ...current, is_strict: strict === 'yes' }))}
              >
                <SelectTrigger id="search-is-strict" className="w-full">
                  <SelectValue />
                </SelectTrigger>
                <SelectContent>
                  <SelectItem value="no">No</SelectItem>
                  <SelectItem value="yes">Yes</SelectItem>
                </SelectContent>
              </Select>
            </div>
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
