import type { ComponentProps } from 'react';
import { Button } from '../ui/button';
import type { FormSection } from '../crud/slots';
import { LineItems } from './line-items';
import { lineContext } from './line-pricing';
import type { LineRow } from './line-rows';
import { asksRest, countsOnArrival, receivedAll, REST_FIELDS, type ReceiveRows } from './receive-rows';
import { RestQuestion } from './rest-question';

/**
 * A document's lines in its form: the line editor, priced by the document's date, party and place.
 * A receive counts what arrived, its lines starting blank: "Receive all" fills every line with what
 * is still on its way, for when all of it came; while it leaves some of the transfer on its way,
 * it asks what became of the rest (receive-rows.ts), before it is saved.
 */
export function DocumentLinesEditor({ definition, value, onChange, errors, values }: ComponentProps<FormSection['Editor']>) {
  // A receive holds its answer about the rest beside its lines.
  const receive = countsOnArrival(definition) ? (value as ReceiveRows) : undefined;
  const rows = receive ? receive.rows : (value as LineRow[]);
  const changeRows = (changed: LineRow[]) => onChange(receive ? { ...receive, rows: changed } : changed);
  const counting = receive !== undefined && rows.some((row) => row.open !== undefined);
  // The server's word on the answer shows even where the lines no longer say what was on its way.
  const asked = receive !== undefined && (asksRest(receive) || (!counting && REST_FIELDS.some((name) => errors[name])));
  return (
    <>
      {counting && (
        <Button type="button" variant="outline" onClick={() => changeRows(receivedAll(rows))}>
          Receive all
        </Button>
      )}
      <LineItems
        rows={rows}
        onChange={changeRows}
        errors={errors}
        fromSource={rows.some((line) => line.source_line_id)}
        priced={definition.document?.lines === 'priced'}
        context={lineContext(definition.document, values)}
      />
      {asked && <RestQuestion value={receive} onChange={(answer) => onChange({ ...receive, answer })} errors={errors} />}
    </>
  );
}
