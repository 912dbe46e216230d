import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate, useParams, useSearch } from '@tanstack/react-router';
import { Download, Printer } from 'lucide-react';
import { todayInManila } from '../../../domain/documents';
import { formatPesos } from '../../../domain/money';
import { getResource } from '../../../domain/resources/registry';
import { defaultStatementPeriod, readsStatements } from '../../../domain/statement';
import { ResourceBreadcrumb } from '../../components/crud/resource-breadcrumb';
import { CardsOrTable, EmptyTableRow } from '../../components/framed-table';
import { NotFoundScreen, NotPermittedScreen } from '../../components/layout/not-found-screen';
import { PeriodForm } from '../../components/period-form';
import { OfflineNotice } from '../../components/offline-notice';
import { ProblemAlert } from '../../components/problem-alert';
import { Button } from '../../components/ui/button';
import { ProgressBar } from '../../components/ui/progress-bar';
import { TableBody, TableCell, TableFooter, TableHead, TableHeader, TableRow } from '../../components/ui/table';
import { describeError } from '../../lib/api';
import { useDownload } from '../../lib/downloads';
import { formatDate } from '../../lib/format';
import { printAs } from '../../lib/print';
import { useActiveBusinessId, usePermissions } from '../../lib/session';
import type { Statement as StatementAnswer, StatementRow } from '../../../domain/statement';
import { statementQuery } from './statement-query';
import { StatementPrintout } from './statement-printout';
import { statementSearch } from './statement-search';

const contacts = getResource('contacts');

/**
 * `/contacts/$id/statement`: what a customer was charged and credited over a period (`?from=&to=`;
 * by default from the first of the month three months ago to today in Manila), each document with
 * the balance after it, between the opening and the closing balance; printed on A4 or downloaded
 * as the server's PDF.
 */
export function StatementScreen() {
  const { id } = useParams({ strict: false }) as { id?: string };
  const allowed = readsStatements(usePermissions());
  if (!id || !/^[1-9]\d{0,8}$/.test(id)) return <NotFoundScreen />;
  if (!allowed) return <NotPermittedScreen what="page" />;
  return <Statement contactId={Number(id)} />;
}

function Statement({ contactId }: { contactId: number }) {
  const businessId = useActiveBusinessId();
  const search = statementSearch(useSearch({ strict: false }) as Record<string, unknown>);
  const fallback = defaultStatementPeriod(search.to ?? todayInManila());
  const period = { from: search.from ?? fallback.from, to: search.to ?? fallback.to };
  const navigate = useNavigate();
  const statement = useQuery(statementQuery(businessId, contactId, period));
  const [downloading, download] = useDownload();
  const answer = statement.data;

  const show = (next: { from: string; to: string }) =>
    void navigate({ to: '/contacts/$id/statement', params: { id: String(contactId) }, search: next });

  const downloadPdf = () =>
    download({
      path: `/api/contacts/${contactId}/statement.pdf`,
      query: period,
      fallbackName: `statement-${contactId}-${period.from}-${period.to}.pdf`,
      offline: 'Downloading needs a connection.',
    });

  return (
    <div className="space-y-4">
      <ResourceBreadcrumb
        definition={contacts}
        record={answer ? { id: String(contactId), label: answer.customer.name } : undefined}
        current="Statement of account"
      />
      <div>
        <h1 className="text-2xl font-semibold tracking-tight">Statement of account</h1>
        <p className="text-sm text-muted-foreground">
          {answer ? `${answer.customer.name}: ` : ''}charges and credits from {formatDate(period.from)} to {formatDate(period.to)}
          {answer?.places ? `, of ${answer.places.join(', ') || 'no place'} only` : ''}.
        </p>
      </div>
      <PeriodForm
        key={`${period.from}|${period.to}`}
        name="statement"
        label="Period"
        period={period}
        onShow={show}
        className="flex flex-wrap items-end gap-2"
        dayClassName="min-w-36 flex-1 sm:flex-none"
        showClassName="min-h-11"
      >
        <Button type="button" variant="outline" className="min-h-11" onClick={() => printAs('a4')} disabled={!answer}>
          <Printer aria-hidden /> Print
        </Button>
        <Button
          type="button"
          variant="outline"
          className="min-h-11"
          onClick={() => void downloadPdf()}
          disabled={downloading}
          aria-busy={downloading}
        >
          <Download aria-hidden /> {downloading ? 'Downloading…' : 'Download PDF'}
        </Button>
      </PeriodForm>
      <OfflineNotice savedAt={answer?.savedOffline} />
      <ProgressBar active={statement.isFetching} />
      <ProblemAlert problem={statement.error ? describeError(statement.error) : null} />
      {answer && <StatementFigures statement={answer} />}
      {answer && <StatementPrintout statement={answer} />}
    </div>
  );
}

/** A document's kind and number, opening it: the number on a line of its own, never broken. */
function DocumentLink({ row }: { row: StatementRow }) {
  return (
    <Link to="/$resource/$id" params={{ resource: row.resource, id: String(row.id) }} className="font-medium hover:underline">
      <span className="block">{row.kind} </span>
      <span className="whitespace-nowrap">{row.number}</span>
    </Link>
  );
}

function StatementFigures({ statement }: { statement: StatementAnswer }) {
  const { data } = statement;
  return (
    <>
      <dl className="grid grid-cols-2 gap-2 lg:grid-cols-4">
        {(
          [
            ['Opening balance', statement.opening_balance],
            ['Charges', statement.totals.debit],
            ['Credits', statement.totals.credit],
          ] as const
        ).map(([label, amount]) => (
          <div key={label} className="rounded-lg border p-3">
            <dt className="text-sm text-muted-foreground">{label}</dt>
            <dd className="font-semibold tabular-nums">{formatPesos(amount)}</dd>
          </div>
        ))}
        <div className="rounded-lg border bg-muted/40 p-3">
          <dt className="text-sm text-muted-foreground">Closing balance</dt>
          <dd className="font-semibold tabular-nums" data-testid="closing-balance">
            {formatPesos(statement.closing_balance)}
          </dd>
        </div>
      </dl>

      {/* A phone reads a card per document; a wider screen the whole table. */}
      <CardsOrTable
        label="Documents"
        empty={data.length === 0 && 'No documents in this period.'}
        cards={data.map((row) => (
          <li key={`${row.resource}-${row.id}`} className="rounded-lg border p-3 text-sm">
            <div className="flex flex-wrap items-baseline justify-between gap-x-3">
              <span className="text-muted-foreground">{formatDate(row.date)}</span>
              {/* A charge as it is, a credit taken off; a refunded return moves nothing. */}
              <span className="font-medium tabular-nums">
                {row.debit ? formatPesos(row.debit) : row.credit ? `− ${formatPesos(row.credit)}` : '—'}
              </span>
            </div>
            <div className="min-h-11 py-1 break-words">
              <DocumentLink row={row} />
            </div>
            {row.description && <p className="break-words text-muted-foreground">{row.description}</p>}
            <p className="mt-1 flex justify-between gap-2">
              <span className="text-muted-foreground">Balance</span>
              <span className="tabular-nums">{formatPesos(row.balance)}</span>
            </p>
          </li>
        ))}
        table={
          <>
            <TableHeader>
              <TableRow>
                <TableHead>Date</TableHead>
                <TableHead>Document</TableHead>
                <TableHead>Description</TableHead>
                <TableHead className="text-right">Debit</TableHead>
                <TableHead className="text-right">Credit</TableHead>
                <TableHead className="text-right">Balance</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              <TableRow>
                <TableCell className="whitespace-nowrap">{formatDate(statement.from)}</TableCell>
                <TableCell colSpan={4} className="text-muted-foreground">
                  Opening balance
                </TableCell>
                <TableCell className="text-right tabular-nums">{formatPesos(statement.opening_balance)}</TableCell>
              </TableRow>
              {data.length === 0 && <EmptyTableRow colSpan={6}>No documents in this period.</EmptyTableRow>}
              {data.map((row) => (
                <TableRow key={`${row.resource}-${row.id}`}>
                  <TableCell className="whitespace-nowrap">{formatDate(row.date)}</TableCell>
                  <TableCell className="whitespace-normal">
                    <DocumentLink row={row} />
                  </TableCell>
                  <TableCell className="min-w-48 whitespace-normal text-muted-foreground">{row.description}</TableCell>
                  <TableCell className="text-right tabular-nums">{row.debit ? formatPesos(row.debit) : '—'}</TableCell>
                  <TableCell className="text-right tabular-nums">{row.credit ? formatPesos(row.credit) : '—'}</TableCell>
                  <TableCell className="text-right tabular-nums">{formatPesos(row.balance)}</TableCell>
                </TableRow>
              ))}
            </TableBody>
            <TableFooter>
              <TableRow>
                <TableCell colSpan={3}>Closing balance</TableCell>
                <TableCell className="text-right tabular-nums">{formatPesos(statement.totals.debit)}</TableCell>
                <TableCell className="text-right tabular-nums">{formatPesos(statement.totals.credit)}</TableCell>
                <TableCell className="text-right tabular-nums">{formatPesos(statement.closing_balance)}</TableCell>
              </TableRow>
            </TableFooter>
          </>
        }
      />
    </>
  );
}
