import * as React from 'react';
import { Toaster as Sonner, type ToasterProps } from 'sonner';
import { TABLE_WIDTH, useMediaQuery } from '../../lib/media';
import { toasterListening } from '../../lib/notify';

function subscribeToHtmlClass(onChange: () => void) {
  const observer = new MutationObserver(onChange);
  observer.observe(document.documentElement, { attributes: true, attributeFilter: ['class'] });
  return () => observer.disconnect();
}

/** Follows the `.dark` class on `<html>`, which is what the Tailwind `dark:` variant keys on too. */
function useHtmlIsDark() {
  return React.useSyncExternalStore(
    subscribeToHtmlClass,
    () => document.documentElement.classList.contains('dark'),
    () => false,
  );
}

/** Mounted by `ToasterHost` at the first toast; says when it listens (its own effect, a child's, has run by then). */
function Toaster({ ...props }: ToasterProps) {
  const dark = useHtmlIsDark();
  // On a phone a toast at the bottom spans the screen over the form's Save and the next action: it shows at the top there.
  const wide = useMediaQuery(TABLE_WIDTH);
  React.useEffect(toasterListening, []);
  return (
    <Sonner
      theme={dark ? 'dark' : 'light'}
      position={wide ? 'bottom-right' : 'top-center'}
      duration={5000}
      richColors
      closeButton
      className="toaster group"
      style={
        {
          '--normal-bg': 'var(--popover)',
          '--normal-text': 'var(--popover-foreground)',
          '--normal-border': 'var(--border)',
        } as React.CSSProperties
      }
      {...props}
    />
  );
}

export { Toaster };
