import { Link } from '@tanstack/react-router';
import { FileText } from 'lucide-react';
import { readsStatements } from '../../../domain/statement';
import type { ActionProps } from '../../components/crud/slots';
import { Button } from '../../components/ui/button';
import { isClientKey } from '../../lib/outbox-queue';
import { usePermissions } from '../../lib/session';

/**
 * A contact's way to its statement of account, on its view: for a contact the server has, to whoever
 * reads statements; not for a supplier, whom no invoice names.
 */
export function StatementLink({ record }: ActionProps) {
  const allowed = readsStatements(usePermissions());
  const type = (record.contact_type as { display?: string | null } | null | undefined)?.display;
  if (!allowed || isClientKey(record.id) || type?.toLowerCase() === 'supplier') return null;
  return (
    <Button asChild variant="outline">
      <Link to="/contacts/$id/statement" params={{ id: String(record.id) }}>
        <FileText aria-hidden /> Statement of Account
      </Link>
    </Button>
  );
}
