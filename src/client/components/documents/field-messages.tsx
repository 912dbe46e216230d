import { cn } from '../../lib/utils';

/**
 * What is wrong with a field (the server's messages, or this form's own check), under the field;
 * nothing while all is well. A line's fields take the small print, a dialog's the larger.
 */
export function FieldMessages({ messages, className = 'mt-1 text-xs' }: { messages: readonly string[] | undefined; className?: string }) {
  if (!messages || messages.length === 0) return null;
  return <p className={cn(className, 'text-destructive')}>{messages.join(' ')}</p>;
}
