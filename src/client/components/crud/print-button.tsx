import { Printer } from 'lucide-react';
import { Button } from '../ui/button';

/** A plain Print: the page as the screen shows it, less its controls, on the printer's own paper. */
export function PrintButton() {
  return (
    <Button variant="outline" onClick={() => window.print()}>
      <Printer aria-hidden /> Print
    </Button>
  );
}
