import type { ReactNode } from 'react';
import { Label } from './ui/label';

/** A form's field with its label above it; `id` is the control's, which the label names. */
export function LabelledField({ id, label, children }: { id: string; label: ReactNode; children: ReactNode }) {
  return (
    <div className="grid gap-1.5">
      <Label htmlFor={id}>{label}</Label>
      {children}
    </div>
  );
}

/** A label in small, muted print above its control (`htmlFor`), for the dense rows of a line, a tender or a filter. */
export function SmallLabel({ htmlFor, children }: { htmlFor: string; children: ReactNode }) {
  return (
    <Label htmlFor={htmlFor} className="mb-1 block text-xs text-muted-foreground">
      {children}
    </Label>
  );
}
