import type { ComponentProps } from 'react';
import { cn } from '../../lib/utils';
import { Button } from './button';
import { Input } from './input';

/** A sign a quantity must take: `1` above zero, `-1` below. */
export type QuantitySign = 1 | -1;

const SIGNS = /[-+−]/g;

/** Whether a signed quantity as typed ("-3", "−3", "3") is below zero. */
const isNegative = (value: string) => /^\s*[-−]/.test(value);

/** A signed quantity's figures without its sign: "-3" → "3". */
const sizeOf = (value: string) => value.replace(SIGNS, '').trim();

/** The quantity `size` with a sign, as the form holds it: "-3", "3"; "-" alone keeps a minus chosen before the figures. */
const withSign = (size: string, negative: boolean) => (negative ? `-${size}` : size);

/** A signed quantity given the sign `sign`: "3" below zero is "-3", "-3" above zero is "3". */
export function signedAs(value: string, sign: QuantitySign): string {
  return withSign(sizeOf(value), sign === -1);
}

/**
 * A quantity with a sign (an adjustment's change, a count's difference) that opens a phone's
 * numeric keypad: such a keypad often has no minus, so a ± key beside the field changes the sign,
 * and a "-" or "+" typed where the keyboard has one sets it. The sign shows before the figures
 * ("−3"), and `value` / `onChange` speak the signed text the form keeps ("-3"). Given `sign`, the
 * quantity always takes it, whatever is typed, and no key is offered: a stock adjustment's
 * "Damaged" line takes stock away, so the clerk types 3 and the line says −3.
 */
export function SignedQuantityInput({
  id,
  value,
  onChange,
  sign,
  className,
  'aria-describedby': describedBy,
  ...props
}: Omit<ComponentProps<'input'>, 'value' | 'onChange' | 'inputMode' | 'type'> & {
  id: string;
  value: string;
  onChange: (value: string) => void;
  /** The sign the quantity must take; absent, the user chooses it. */
  sign?: QuantitySign;
}) {
  const negative = sign === undefined ? isNegative(value) : sign === -1;
  const signId = `${id}-sign`;
  const typed = (text: string) => {
    // A sign typed anywhere sets it ("-" below zero, "+" above), unless the sign is given.
    const chosen = text.includes('+') ? false : /[-−]/.test(text) ? true : negative;
    onChange(withSign(sizeOf(text), sign === undefined ? chosen : sign === -1));
  };
  return (
    <div className={cn('flex items-center gap-1', className)}>
      <span id={signId} className="w-4 shrink-0 text-center text-lg font-medium tabular-nums">
        <span aria-hidden>{negative ? '−' : '+'}</span>
        <span className="sr-only">{negative ? 'Below zero' : 'Above zero'}</span>
      </span>
      <Input
        id={id}
        type="text"
        inputMode="decimal"
        autoComplete="off"
        className="h-11 min-w-0 flex-1 text-right tabular-nums"
        value={sizeOf(value)}
        aria-describedby={[signId, describedBy].filter(Boolean).join(' ')}
        onChange={(event) => typed(event.target.value)}
        {...props}
      />
      {sign === undefined && (
        <Button
          type="button"
          variant="outline"
          size="icon"
          aria-label="Change sign"
          aria-controls={id}
          // The field keeps the focus, so a phone's keypad stays open while the sign changes.
          onMouseDown={(event) => event.preventDefault()}
          onClick={() => onChange(withSign(sizeOf(value), !negative))}
          disabled={props.disabled}
        >
          <span aria-hidden className="text-lg">
            ±
          </span>
        </Button>
      )}
    </div>
  );
}
