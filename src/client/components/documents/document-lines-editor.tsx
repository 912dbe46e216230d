import type { ComponentProps } from 'react';
import { Button } from '../ui/button';
import type { FormSection } from '../crud/slots';
import { LineItems } from './line-items';
import { lineContext } from './line-pricing';
import type { LineRow } from './line-rows';
import { countsOnArrival, receivedAll } from './prefill';

/**
 * A document's lines in its form: the line editor, priced by the document's date, party and place.
 * A receive counts what arrived, its lines starting blank: "Receive all" fills every line with what
 * is still on its way, for when all of it came.
 */
export function DocumentLinesEditor({ definition, value, onChange, errors, values }: ComponentProps<FormSection['Editor']>) {
  const rows = value as LineRow[];
  const counting = countsOnArrival(definition) && rows.some((row) => row.open !== undefined);
  return (
    <>
      {counting && (
        <Button type="button" variant="outline" onClick={() => onChange(receivedAll(rows))}>
          Receive all
        </Button>
      )}
      <LineItems
        rows={rows}
        onChange={onChange}
        errors={errors}
        fromSource={rows.some((line) => line.source_line_id)}
        priced={definition.document?.lines === 'priced'}
        context={lineContext(definition.document, values)}
      />
    </>
  );
}
