// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { SignedQuantityInput, signedAs, type QuantitySign } from './signed-quantity-input';

afterEach(cleanup);

/** The input as a form holds it: the signed text it would send, shown beside it. */
function Held({ start, sign }: { start: string; sign?: QuantitySign }) {
  const [value, setValue] = useState(start);
  return (
    <>
      <label htmlFor="change">Change</label>
      <SignedQuantityInput id="change" value={value} onChange={setValue} sign={sign} />
      <output data-testid="held">{value}</output>
    </>
  );
}

const field = () => screen.getByRole<HTMLInputElement>('textbox', { name: 'Change' });
const held = () => screen.getByTestId('held').textContent;
const type = (text: string) => fireEvent.change(field(), { target: { value: text } });

describe('SignedQuantityInput', () => {
  it('opens the numeric keypad, and its ± key changes the sign of what is typed', () => {
    render(<Held start="3" />);
    expect(field().getAttribute('inputmode')).toBe('decimal');
    expect(field().value).toBe('3');
    expect(field().getAttribute('aria-describedby')).toBe('change-sign');
    expect(document.getElementById('change-sign')?.textContent).toBe('+Above zero');
    fireEvent.click(screen.getByRole('button', { name: 'Change sign' }));
    expect(held()).toBe('-3');
    expect(field().value).toBe('3');
    expect(document.getElementById('change-sign')?.textContent).toBe('−Below zero');
    // The sign stays as the figures change.
    type('12.5');
    expect(held()).toBe('-12.5');
    fireEvent.click(screen.getByRole('button', { name: 'Change sign' }));
    expect(held()).toBe('12.5');
  });

  it('takes a "-" or "+" typed where the keyboard has one, anywhere in the field', () => {
    render(<Held start="" />);
    type('-');
    expect(held()).toBe('-');
    expect(field().value).toBe('');
    type('4');
    expect(held()).toBe('-4');
    type('4+');
    expect(held()).toBe('4');
    type('−7');
    expect(held()).toBe('-7');
  });

  it('keeps the focus in the field when the ± key is pressed, so a phone keeps its keypad open', () => {
    render(<Held start="2" />);
    const key = screen.getByRole('button', { name: 'Change sign' });
    expect(fireEvent.mouseDown(key)).toBe(false);
  });

  it('with a given sign, offers no key and gives whatever is typed that sign', () => {
    render(<Held start="3" sign={-1} />);
    expect(screen.queryByRole('button', { name: 'Change sign' })).toBeNull();
    expect(document.getElementById('change-sign')?.textContent).toBe('−Below zero');
    type('5');
    expect(held()).toBe('-5');
    type('+5');
    expect(held()).toBe('-5');
    cleanup();
    render(<Held start="-3" sign={1} />);
    expect(field().value).toBe('3');
    type('-6');
    expect(held()).toBe('6');
  });

  it('gives a quantity a sign, as a reason that decides it does', () => {
    expect(signedAs('3', -1)).toBe('-3');
    expect(signedAs('-3', -1)).toBe('-3');
    expect(signedAs('-3', 1)).toBe('3');
    expect(signedAs(' 2.5 ', 1)).toBe('2.5');
    expect(signedAs('', -1)).toBe('-');
  });
});
