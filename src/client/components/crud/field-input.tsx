import { useQuery } from '@tanstack/react-query';
import { Minus, Plus } from 'lucide-react';
import type { Field } from '../../../domain/fields';
import { referenceKey } from '../../../domain/resource';
import { getResource } from '../../../domain/resources/registry';
import type { PlaceInput } from '../../lib/places';
import { listQuery } from '../../lib/resource-queries';
import { useActiveBusinessId } from '../../lib/session';
import { Button } from '../ui/button';
import { Checkbox } from '../ui/checkbox';
import { Input } from '../ui/input';
import { Label } from '../ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '../ui/select';
import { Textarea } from '../ui/textarea';
import { displayOf, ReferencePicker } from './reference-picker';
import { changeAt } from '../../lib/utils';

export type FormValues = Record<string, unknown>;

/**
 * A contact field that takes one kind of contact (customers on an invoice, suppliers on an order)
 * searches only contacts of that type, found by its name among the business's contact types; a
 * business without such a type searches every contact.
 */
function useContactTypeFilter(contactType: Field['contactType']): Record<string, number> | undefined {
  const businessId = useActiveBusinessId();
  const types = useQuery({
    ...listQuery(businessId, getResource('contact-types'), { name: contactType ?? '', is_strict: 1, limit: 1 }),
    enabled: contactType !== undefined,
  });
  const type = types.data?.data[0];
  return type ? { contact_type_id: Number(type.id) } : undefined;
}

interface DiscountRow {
  quantity: string;
  discount_percent: string;
}

/** A quantity-break list: rows of quantity and percent, added and removed by touch or keyboard. */
function DiscountsInput({
  id,
  label,
  value,
  onChange,
  invalid,
}: {
  id: string;
  label: string;
  value: DiscountRow[];
  onChange: (rows: DiscountRow[]) => void;
  invalid: boolean;
}) {
  const update = (index: number, changes: Partial<DiscountRow>) => onChange(changeAt(value, index, changes));
  return (
    <div id={id} role="group" aria-label={label} aria-invalid={invalid} className="space-y-2">
      {value.length === 0 && <p className="text-sm text-muted-foreground">No discounts.</p>}
      {value.map((row, index) => (
        <div key={index} className="flex items-center gap-2">
          <Input
            inputMode="decimal"
            value={row.quantity}
            onChange={(event) => update(index, { quantity: event.target.value })}
            aria-label={`${label} ${index + 1}: quantity`}
            placeholder="Quantity"
          />
          <span aria-hidden>:</span>
          <Input
            inputMode="decimal"
            value={row.discount_percent}
            onChange={(event) => update(index, { discount_percent: event.target.value })}
            aria-label={`${label} ${index + 1}: discount percent`}
            placeholder="Percent"
          />
          <span aria-hidden>%</span>
          <Button
            type="button"
            variant="ghost"
            size="icon"
            aria-label={`Remove ${label.toLowerCase()} ${index + 1}`}
            onClick={() => onChange(value.filter((_, at) => at !== index))}
          >
            <Minus aria-hidden />
          </Button>
        </div>
      ))}
      <Button
        type="button"
        variant="outline"
        size="sm"
        className="h-11"
        onClick={() => onChange([...value, { quantity: '', discount_percent: '' }])}
      >
        <Plus aria-hidden /> Add a discount
      </Button>
    </div>
  );
}

/** The value a form starts with for a field, from a stored record or empty. */
export function initialValue(field: Field, stored: unknown): unknown {
  if (field.writeOnly) return '';
  if (field.kind === 'boolean') return Boolean(stored);
  if (field.kind === 'discounts') {
    return ((stored as { quantity: number; discount_percent: number }[] | null) ?? []).map((entry) => ({
      quantity: String(entry.quantity),
      discount_percent: String(entry.discount_percent),
    }));
  }
  // A picked id stays a number, whichever resource it names.
  if (field.kind === 'reference' || field.referencesBy) return stored ?? null;
  return stored === null || stored === undefined ? (field.whenBlank ?? '') : String(stored);
}

const PLACE_TYPE_LABELS: Record<string, string> = { branch: 'Branch', warehouse: 'Warehouse' };

/**
 * One field of a generic form, rendered by its kind, with its server messages beneath. A field
 * naming a place (`place`, lib/places.ts) offers only the places the user may use there, or says
 * the one place they operate at.
 */
export function FieldInput({
  name,
  field,
  values,
  record,
  errors,
  onChange,
  editing,
  place,
}: {
  name: string;
  field: Field;
  values: FormValues;
  record?: Record<string, unknown>;
  errors: string[];
  /** `shown`: a picked record's name, as its picker shows it. */
  onChange: (name: string, value: unknown, shown?: string) => void;
  editing: boolean;
  place?: PlaceInput;
}) {
  const id = `field-${name}`;
  const errorId = `${id}-error`;
  const invalid = errors.length > 0;
  const value = values[name];
  const common = { id, 'aria-invalid': invalid || undefined, 'aria-describedby': invalid ? errorId : undefined };
  const required = field.required && !(editing && field.writeOnly);
  const referenceResource = field.references ?? field.referencesBy?.resources[String(values[field.referencesBy.field])];
  const contactTypeFilter = useContactTypeFilter(field.contactType);

  let control;
  if (place?.as === 'text') {
    control = (
      <output id={id} aria-describedby={invalid ? errorId : undefined} className="flex min-h-11 items-center gap-2 text-sm">
        <span className="font-medium">{place.place.name}</span>
        {field.referencesBy && <span className="text-muted-foreground">{PLACE_TYPE_LABELS[place.place.type]}</span>}
      </output>
    );
  } else if (referenceResource) {
    const target = getResource(referenceResource);
    const shown = record?.[referenceKey(name)] as { display: string | null } | undefined;
    const choices = place?.as === 'picker' ? place.choices : undefined;
    const known = value === record?.[name] ? (shown?.display ?? null) : undefined;
    control = (
      <ReferencePicker
        id={id}
        target={target}
        value={(value as number | null) || null}
        display={known ?? choices?.find((choice) => choice.id === value)?.name}
        onChange={(picked, chosen) => onChange(name, picked, chosen && displayOf(target, chosen))}
        required={required}
        invalid={invalid}
        describedBy={invalid ? errorId : undefined}
        filter={contactTypeFilter}
        choices={choices}
      />
    );
  } else if (field.referencesBy) {
    control = (
      <p className="text-sm text-muted-foreground">
        Choose {field.referencesBy.field === 'userable_type' ? 'where the user works' : 'the type'} first.
      </p>
    );
  } else if (field.kind === 'textarea') {
    control = <Textarea {...common} value={String(value ?? '')} onChange={(event) => onChange(name, event.target.value)} rows={3} />;
  } else if (field.kind === 'boolean') {
    control = (
      <div className="flex min-h-11 items-center gap-3">
        <Checkbox
          id={id}
          checked={Boolean(value)}
          onCheckedChange={(checked) => onChange(name, checked === true)}
          aria-invalid={invalid || undefined}
          aria-describedby={invalid ? errorId : undefined}
        />
        <Label htmlFor={id} className="font-normal">
          {field.label}
        </Label>
      </div>
    );
  } else if (field.kind === 'select') {
    control = (
      <Select value={String(value || '') || '__none'} onValueChange={(next) => onChange(name, next === '__none' ? '' : next)}>
        <SelectTrigger {...common} className="w-full">
          {/* The chosen option's label, written out: the trigger must not look empty while it holds a value. */}
          <SelectValue>{field.options?.find((option) => option.value === value)?.label ?? '—'}</SelectValue>
        </SelectTrigger>
        <SelectContent>
          {!field.required && <SelectItem value="__none">—</SelectItem>}
          {(place?.as === 'types'
            ? field.options?.filter((option) => place.types.some((type) => type === option.value))
            : field.options
          )?.map((option) => (
            <SelectItem key={option.value} value={option.value}>
              {option.label}
            </SelectItem>
          ))}
        </SelectContent>
      </Select>
    );
  } else if (field.kind === 'discounts') {
    control = (
      <DiscountsInput
        id={id}
        label={field.label}
        value={value as DiscountRow[]}
        onChange={(rows) => onChange(name, rows)}
        invalid={invalid}
      />
    );
  } else {
    const numeric = ['integer', 'money', 'quantity', 'factor'].includes(field.kind);
    const input = (
      <Input
        {...common}
        type={
          field.kind === 'email'
            ? 'email'
            : field.kind === 'date'
              ? 'date'
              : field.kind === 'password' || field.kind === 'pin'
                ? 'password'
                : 'text'
        }
        inputMode={field.kind === 'pin' || field.kind === 'integer' || field.format ? 'numeric' : numeric ? 'decimal' : undefined}
        autoComplete={field.kind === 'password' || field.kind === 'pin' ? 'new-password' : field.kind === 'email' ? 'email' : 'off'}
        maxLength={field.kind === 'pin' ? 6 : undefined}
        value={String(value ?? '')}
        onChange={(event) => onChange(name, event.target.value)}
        className={field.kind === 'money' ? 'pl-7' : undefined}
        placeholder={editing && field.writeOnly ? 'Leave blank to keep the current one' : undefined}
      />
    );
    control =
      field.kind === 'money' ? (
        <div className="relative">
          <span className="pointer-events-none absolute top-1/2 left-3 -translate-y-1/2 text-sm text-muted-foreground" aria-hidden>
            ₱
          </span>
          {input}
        </div>
      ) : (
        input
      );
  }

  return (
    <div className="grid content-start gap-1.5">
      {field.kind !== 'boolean' && (
        <Label htmlFor={id}>
          {field.label}
          {required && (
            <span className="text-destructive" aria-hidden>
              {' '}
              *
            </span>
          )}
        </Label>
      )}
      {control}
      {invalid && (
        <p id={errorId} className="text-sm text-destructive">
          {errors.join(' ')}
        </p>
      )}
    </div>
  );
}
