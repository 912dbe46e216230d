import * as React from 'react';
import { Toaster as Sonner, type ToasterProps } from 'sonner';

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

/** Mount once near the root; then call `toast.success('Saved')` (from 'sonner') anywhere. */
function Toaster({ ...props }: ToasterProps) {
  const dark = useHtmlIsDark();
  return (
    <Sonner
      theme={dark ? 'dark' : 'light'}
      position="bottom-right"
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
