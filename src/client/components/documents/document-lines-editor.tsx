import type { ComponentProps } from 'react';
import type { FormSection } from '../crud/slots';
import { LineItems } from './line-items';
import { lineContext } from './line-pricing';
import type { LineRow } from './line-rows';

/** A document's lines in its form: the line editor, priced by the document's date, party and place. */
export function DocumentLinesEditor({ definition, value, onChange, errors, values }: ComponentProps<FormSection['Editor']>) {
  const rows = value as LineRow[];
  return (
    <LineItems
      rows={rows}
      onChange={onChange}
      errors={errors}
      fromSource={rows.some((line) => line.source_line_id)}
      priced={definition.document?.lines === 'priced'}
      context={lineContext(definition.document, values)}
    />
  );
}
