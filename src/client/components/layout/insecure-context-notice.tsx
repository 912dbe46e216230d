import { ShieldAlert, X } from 'lucide-react';
import { useState } from 'react';
import { Button } from '../ui/button';

const DISMISSED_KEY = 'bodega-insecure-context-notice-dismissed';

/**
 * A browser runs a service worker only in a secure context (https, or localhost), so a page
 * opened over plain http under any other name cannot be opened or reloaded without a network,
 * nor a lazily loaded screen it has not loaded yet. What was seen and the outbox (IndexedDB) still
 * work in an open tab. Says so until dismissed, once per tab session.
 */
export function InsecureContextNotice() {
  const [shown, setShown] = useState(() => !window.isSecureContext && sessionStorage.getItem(DISMISSED_KEY) === null);
  if (!shown) return null;
  const dismiss = () => {
    sessionStorage.setItem(DISMISSED_KEY, '1');
    setShown(false);
  };
  return (
    <div
      role="status"
      className="mb-3 flex items-start gap-2 rounded-md border border-warning/50 bg-warning/15 py-1 pl-3 text-sm print:hidden"
    >
      <ShieldAlert className="mt-2.5 size-4 shrink-0" aria-hidden />
      <p className="flex-1 py-2">
        <strong className="font-semibold">Working offline needs a secure connection (https).</strong> This page was opened over plain http,
        so while the network is down this device cannot open or reload Bodega, nor a screen not opened yet. Ask whoever runs Bodega to serve
        it over https.
      </p>
      <Button variant="ghost" size="icon" aria-label="Dismiss the https notice" onClick={dismiss}>
        <X aria-hidden />
      </Button>
    </div>
  );
}
