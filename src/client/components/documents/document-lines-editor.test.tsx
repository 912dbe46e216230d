// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { getResource } from '../../../domain/resources/registry';
import type { LineRow } from './line-rows';
import { receiveSection, receiving, type ReceiveRows } from './receive-rows';

// The line editor, as a field per line for what arrived: what it prices and looks up is its own.
vi.mock('./line-items', () => ({
  LineItems: ({ rows, onChange }: { rows: LineRow[]; onChange: (rows: LineRow[]) => void }) => (
    <>
      {rows.map((row, index) => (
        <input
          key={index}
          aria-label={`Received of ${row.item_name ?? ''}`}
          value={row.quantity}
          onChange={(event) => onChange(rows.map((other, at) => (at === index ? { ...other, quantity: event.target.value } : other)))}
        />
      ))}
      <button type="button" onClick={() => onChange(rows.slice(0, -1))}>
        Take off the last line
      </button>
    </>
  ),
}));

const { DocumentLinesEditor } = await import('./document-lines-editor');

const receives = getResource('stock-receives');
/** The documents' lines section as the app registers it (screen-parts.tsx), for a receive. */
const section = receiveSection({
  name: 'lines',
  holds: () => true,
  start: (_definition, record) => (record?.lines as LineRow[] | undefined) ?? [],
  body: (value) => (value as LineRow[]).map((row) => ({ source_line_id: row.source_line_id, quantity: Number(row.quantity) })),
  Editor: DocumentLinesEditor,
});

const row = (line: number, name: string, open: number): LineRow => ({
  item_id: 10 + line,
  item_name: name,
  unit_of_measurement_id: 1,
  quantity: '',
  unit_price: '',
  discount_percent: '',
  source_line_id: line,
  open,
});
/** A transfer of 42 cans of tomato sauce and 5 jars of coffee, to be received. */
const transferred = () => receiving([row(1, 'Tomato Sauce', 42), row(2, 'Coffee', 5)]);

/** The editor as the form holds it, with what the form would send: the lines, and beside them the answer about the rest. */
function Form({ start, errors = {} }: { start: ReceiveRows; errors?: Record<string, string[]> }) {
  const [value, setValue] = useState<unknown>(start);
  return (
    <>
      <DocumentLinesEditor definition={receives} value={value} onChange={setValue} errors={errors} values={{}} />
      <output data-testid="lines">{JSON.stringify(section.body(value))}</output>
      <output data-testid="beside">{JSON.stringify(section.fields!(value))}</output>
    </>
  );
}

const sent = () => JSON.parse(screen.getByTestId('beside').textContent!) as unknown;
const question = () => screen.queryByRole('group', { name: /Not everything arrived/ });
const type = (name: string, quantity: string) =>
  fireEvent.change(screen.getByLabelText(`Received of ${name}`), { target: { value: quantity } });

afterEach(cleanup);

describe('a receive’s lines, and what became of the rest', () => {
  it('asks nothing and sends nothing when everything arrived', () => {
    render(<Form start={transferred()} />);
    fireEvent.click(screen.getByRole('button', { name: 'Receive all' }));
    expect(question()).toBeNull();
    expect(sent()).toEqual({});
    expect(JSON.parse(screen.getByTestId('lines').textContent!)).toEqual([
      { source_line_id: 1, quantity: 42 },
      { source_line_id: 2, quantity: 5 },
    ]);
  });

  it('asks, with neither answer chosen, once the count is short; unanswered, it is sent for the server to refuse', () => {
    render(<Form start={transferred()} />);
    fireEvent.click(screen.getByRole('button', { name: 'Receive all' }));
    type('Tomato Sauce', '40');
    const asked = question()!;
    expect(within(asked).getByText('Still on its way: 2 × Tomato Sauce.')).toBeTruthy();
    const keep = within(asked).getByRole<HTMLInputElement>('radio', { name: 'Keep the rest in transit' });
    const close = within(asked).getByRole<HTMLInputElement>('radio', { name: 'Close the rest as lost' });
    expect([keep.checked, close.checked]).toEqual([false, false]);
    expect(sent()).toEqual({ rest: null });

    fireEvent.click(keep);
    expect(sent()).toEqual({ rest: 'keep' });
    expect(within(asked).queryByLabelText(/Why it did not arrive/)).toBeNull();
  });

  it('closes the rest as lost with a reason and a note, which “Other” needs', () => {
    render(<Form start={transferred()} />);
    type('Tomato Sauce', '40');
    type('Coffee', '5');
    fireEvent.click(screen.getByRole('radio', { name: 'Close the rest as lost' }));
    const reason = screen.getByLabelText<HTMLSelectElement>(/Why it did not arrive/);
    expect([...reason.options].map((option) => option.text)).toEqual([
      'Choose…',
      'Damaged in transit',
      'Lost in transit',
      'Short-shipped by the sender',
      'Other',
    ]);
    expect(sent()).toEqual({ rest: 'close', lost_reason: null, lost_note: null });
    fireEvent.change(reason, { target: { value: 'damaged' } });
    expect(screen.getByLabelText('Note (optional)')).toBeTruthy();
    expect(sent()).toEqual({ rest: 'close', lost_reason: 'damaged', lost_note: null });
    fireEvent.change(reason, { target: { value: 'other' } });
    fireEvent.change(screen.getByLabelText('Note'), { target: { value: '  Fell off the jeepney ' } });
    expect(sent()).toEqual({ rest: 'close', lost_reason: 'other', lost_note: 'Fell off the jeepney' });

    // All of it came after all: nothing more is asked, or sent.
    type('Tomato Sauce', '42');
    expect(question()).toBeNull();
    expect(sent()).toEqual({});
  });

  it('asks for a line taken off the receive: none of it came', () => {
    render(<Form start={transferred()} />);
    fireEvent.click(screen.getByRole('button', { name: 'Receive all' }));
    fireEvent.click(screen.getByRole('button', { name: 'Take off the last line' }));
    expect(within(question()!).getByText('Still on its way: 5 × Coffee.')).toBeTruthy();
  });

  it('shows the server’s messages under the answer, its reason and its note', () => {
    const start: ReceiveRows = { ...transferred(), answer: { rest: 'close', lost_reason: 'other', lost_note: '' } };
    render(
      <Form
        start={start}
        errors={{
          rest: ['Nothing of the transfer is left in transit to close.'],
          lost_note: ['Say in a note what happened to the rest.'],
        }}
      />,
    );
    expect(screen.getByText('Nothing of the transfer is left in transit to close.')).toBeTruthy();
    expect(screen.getByText('Say in a note what happened to the rest.')).toBeTruthy();
    expect(screen.getByLabelText('Note').getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByRole('radio', { name: 'Keep the rest in transit' }).getAttribute('aria-invalid')).toBe('true');
  });

  it('keeps the answer of a queued receive being corrected, whose lines no longer say what was on its way', () => {
    const queued = { lines: [{ ...row(1, 'Tomato Sauce', 42), open: undefined, quantity: '40' }], rest: 'close', lost_reason: 'damaged' };
    const start = section.start(receives, queued) as ReceiveRows;
    expect(start.answer).toEqual({ rest: 'close', lost_reason: 'damaged', lost_note: '' });
    render(<Form start={start} />);
    expect(screen.getByRole<HTMLInputElement>('radio', { name: 'Close the rest as lost' }).checked).toBe(true);
    expect(sent()).toEqual({ rest: 'close', lost_reason: 'damaged', lost_note: null });
    cleanup();

    // One sent unanswered, refused for it, is asked again.
    const unanswered = section.start(receives, { lines: queued.lines }) as ReceiveRows;
    render(<Form start={unanswered} />);
    expect(question()).toBeNull();
    cleanup();
    render(<Form start={unanswered} errors={{ rest: ['The rest must be kept in transit (keep) or closed as lost (close).'] }} />);
    fireEvent.click(within(question()!).getByRole('radio', { name: 'Keep the rest in transit' }));
    expect(sent()).toEqual({ rest: 'keep' });
  });

  it('asks nothing of a document that does not count what arrives', () => {
    const orders = getResource('receive-orders');
    render(<DocumentLinesEditor definition={orders} value={[row(1, 'Milo', 10)]} onChange={() => undefined} errors={{}} values={{}} />);
    expect(screen.queryByRole('button', { name: 'Receive all' })).toBeNull();
    expect(question()).toBeNull();
  });
});
