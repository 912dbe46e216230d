import { Link, useNavigate, useSearch } from '@tanstack/react-router';
import { Download, FileUp } from 'lucide-react';
import { useId, useState } from 'react';
import {
  IMPORT_KINDS,
  importKind,
  importNeeds,
  matchColumns,
  type ImportKind,
  type ImportKindName,
  type ImportOutcome,
} from '../../../domain/imports';
import { holdsAny, permissionName } from '../../../domain/permissions';
import { getResource } from '../../../domain/resources/registry';
import { NotFoundScreen } from '../../components/layout/not-found-screen';
import { Button } from '../../components/ui/button';
import { Label } from '../../components/ui/label';
import { NativeOptions, NativeSelect } from '../../components/ui/native-select';
import { ProgressBar } from '../../components/ui/progress-bar';
import { FramedTable } from '../../components/framed-table';
import { HeadedSection } from '../../components/headed-section';
import { TableBody, TableCell, TableHead, TableHeader, TableRow } from '../../components/ui/table';
import { ApiError, describeError, postWithProgress } from '../../lib/api';
import { clientKey } from '../../lib/outbox-queue';
import { usePermissions } from '../../lib/session';
import { count, importedWords, newRecords } from './import-words';
import { readSheet, SheetProblem, templateCsv, type Cell } from './read-sheet';
import { ProblemAlert } from '../../components/problem-alert';
import { SmallLabel } from '../../components/labelled-field';

type Stage =
  | { step: 'choose' }
  | { step: 'checking' }
  /** Checked: the import of exactly these rows goes with one Idempotency-Key, however often Import is pressed. */
  | { step: 'checked'; outcome: ImportOutcome; key: string }
  | { step: 'importing'; sent: number; key: string }
  | { step: 'done'; outcome: ImportOutcome };

const NOT_IN_FILE = '';

/** The kinds this user may import: those whose records they may create. */
function useImportable(): ImportKind[] {
  const held = usePermissions();
  return IMPORT_KINDS.filter((kind) => holdsAny(held, [permissionName('create', getResource(kind.resource).permission)]));
}

/** `/imports`: bring in items, contacts, prices or opening stock from a CSV or Excel file. */
export function ImportScreen() {
  const importable = useImportable();
  if (importable.length === 0) return <NotFoundScreen what="page" />;
  return <Importer importable={importable} />;
}

/**
 * The import, step by step: the kind (with its template), the file (read here, never uploaded as
 * a file), its columns matched by header and adjustable, what to do with rows already there, a
 * check that lists each row's problems in words, then the import itself — all or nothing — with
 * its progress.
 */
function Importer({ importable }: { importable: ImportKind[] }) {
  const search = useSearch({ strict: false }) as { kind?: string };
  const navigate = useNavigate();
  const kind = importable.find((each) => each.name === search.kind) ?? importable[0];
  const held = usePermissions();
  const { permission } = getResource(kind.resource);
  const mayUpdate = importNeeds(kind, true).every((action) => holdsAny(held, [permissionName(action, permission)]));
  const [file, setFile] = useState<{ name: string; rows: Cell[][] } | null>(null);
  const [mapping, setMapping] = useState<Record<string, number | null>>({});
  const [onExisting, setOnExisting] = useState<'skip' | 'update'>('skip');
  const [stage, setStage] = useState<Stage>({ step: 'choose' });
  const [problem, setProblem] = useState<string | null>(null);
  const ids = { kind: useId(), file: useId(), existing: useId() };

  const headers = file ? file.rows[0].map((cell, index) => (cell === null || cell === '' ? `Column ${index + 1}` : String(cell))) : [];
  const body = file ? file.rows.slice(1) : [];
  // An update needs only the columns that say which record a row is; it changes what else the file gives.
  const missing = kind.columns.filter(
    (column) => column.required && (onExisting === 'skip' || column.identifies) && (mapping[column.key] ?? null) === null,
  );
  const taken = new Set(Object.values(mapping));
  const ignored = headers.filter((_, index) => !taken.has(index));
  const rows = () =>
    body.map((cells) =>
      Object.fromEntries(
        kind.columns.flatMap((column) => (mapping[column.key] == null ? [] : [[column.key, cells[mapping[column.key]!] ?? null]])),
      ),
    );

  const choose = (name: ImportKindName) => {
    void navigate({ to: '/imports', search: { kind: name } });
    if (file) setMapping(matchColumns(importKind(name)!, headers));
    setStage({ step: 'choose' });
  };
  const read = async (chosen: File | undefined) => {
    if (!chosen) return;
    setProblem(null);
    setStage({ step: 'choose' });
    setFile(null);
    try {
      const sheet = await readSheet(chosen);
      const named = sheet[0].map((cell, index) => (cell === null || cell === '' ? `Column ${index + 1}` : String(cell)));
      setFile({ name: chosen.name, rows: sheet });
      setMapping(matchColumns(kind, named));
    } catch (error) {
      setProblem(error instanceof SheetProblem ? error.message : `The file could not be read: ${describeError(error)}`);
    }
  };
  const check = async () => {
    setProblem(null);
    setStage({ step: 'checking' });
    try {
      const outcome = await send(kind.name, { rows: rows(), on_existing: onExisting, check_only: true }, clientKey(), () => undefined);
      setStage({ step: 'checked', outcome, key: clientKey() });
    } catch (error) {
      setProblem(describeError(error));
      setStage({ step: 'choose' });
    }
  };
  const run = async (checked: { outcome: ImportOutcome; key: string }) => {
    setProblem(null);
    setStage({ step: 'importing', sent: 0, key: checked.key });
    try {
      const outcome = await send(kind.name, { rows: rows(), on_existing: onExisting }, checked.key, (sent) =>
        setStage({ step: 'importing', sent, key: checked.key }),
      );
      setStage({ step: 'done', outcome });
    } catch (error) {
      setProblem(describeError(error));
      // Refused (the rows changed meanwhile, say): it is checked anew. Lost on the way, or the server
      // busy: pressed again, the same import goes with the same key, applied once if the first got through.
      const refused =
        error instanceof ApiError && error.status >= 400 && error.status < 500 && error.status !== 408 && error.status !== 429;
      setStage(refused ? { step: 'choose' } : { step: 'checked', ...checked });
    }
  };
  const downloadTemplate = () => {
    const link = document.createElement('a');
    link.href = URL.createObjectURL(templateCsv(kind.columns));
    link.download = `bodega-${kind.name}-template.csv`;
    link.click();
    setTimeout(() => URL.revokeObjectURL(link.href), 1000);
  };
  const busy = stage.step === 'checking' || stage.step === 'importing';

  return (
    <div className="max-w-4xl space-y-6">
      <h1 className="text-2xl font-semibold tracking-tight">Import</h1>
      <section className="grid gap-4 sm:grid-cols-2">
        <div>
          <Label htmlFor={ids.kind} className="mb-1 block">
            What to import
          </Label>
          <NativeSelect
            id={ids.kind}
            className="w-full"
            value={kind.name}
            onChange={(event) => choose(event.target.value as ImportKindName)}
          >
            <NativeOptions choices={importable.map((each) => ({ value: each.name, label: each.title }))} />
          </NativeSelect>
        </div>
        <div className="flex items-end">
          <Button type="button" variant="outline" onClick={downloadTemplate}>
            <Download aria-hidden /> Download the {kind.title.toLowerCase()} template
          </Button>
        </div>
        <div className="sm:col-span-2">
          <Label htmlFor={ids.file} className="mb-1 block">
            File (CSV or Excel .xlsx, up to 20 MB)
          </Label>
          <input
            id={ids.file}
            type="file"
            accept=".csv,.xlsx,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
            className="block w-full text-sm file:mr-3 file:h-11 file:rounded-md file:border file:bg-background file:px-4 file:text-sm file:font-medium"
            disabled={busy}
            onChange={(event) => {
              void read(event.target.files?.[0]);
              // Emptied once read, so choosing the same file again (corrected under the same name) reads it again.
              event.target.value = '';
            }}
          />
        </div>
      </section>
      <ProblemAlert problem={problem} />
      {file && (
        <>
          <HeadedSection headingId="columns-heading" title={`Columns of ${file.name} · ${count(body.length, 'row')}`} className="space-y-3">
            <div className="grid gap-3 sm:grid-cols-2">
              {kind.columns.map((column) => (
                <div key={column.key}>
                  <SmallLabel htmlFor={`column-${column.key}`}>
                    {column.label}
                    {column.required ? ' (required)' : ''}
                  </SmallLabel>
                  <NativeSelect
                    id={`column-${column.key}`}
                    className="w-full"
                    value={mapping[column.key] == null ? NOT_IN_FILE : String(mapping[column.key])}
                    aria-invalid={column.required && mapping[column.key] == null}
                    onChange={(event) => {
                      setMapping({ ...mapping, [column.key]: event.target.value === NOT_IN_FILE ? null : Number(event.target.value) });
                      setStage({ step: 'choose' });
                    }}
                  >
                    <option value={NOT_IN_FILE}>— not in the file —</option>
                    {headers.map((header, index) => (
                      <option key={index} value={String(index)}>
                        {header}
                      </option>
                    ))}
                  </NativeSelect>
                </div>
              ))}
            </div>
            {missing.length > 0 && (
              <p className="text-sm text-destructive">Choose the file’s column for {missing.map((column) => column.label).join(', ')}.</p>
            )}
            <div>
              <Label htmlFor={ids.existing} className="mb-1 block">
                Rows for {kind.sameWhen} as a record already here
              </Label>
              <NativeSelect
                id={ids.existing}
                value={onExisting}
                onChange={(event) => {
                  setOnExisting(event.target.value as 'skip' | 'update');
                  setStage({ step: 'choose' });
                }}
              >
                <option value="skip">Skip them</option>
                {mayUpdate && <option value="update">Update the record from them</option>}
              </NativeSelect>
            </div>
            {ignored.length > 0 && (
              <p className="text-sm text-muted-foreground">
                Not imported (no column of {kind.title.toLowerCase()} takes them): {ignored.join(', ')}.
              </p>
            )}
            <Preview headers={headers} rows={body} />
          </HeadedSection>
          <div className="flex flex-wrap items-center gap-3">
            <Button type="button" variant="outline" onClick={() => void check()} disabled={busy || missing.length > 0}>
              Check {count(body.length, 'row')}
            </Button>
            {stage.step === 'checked' && stage.outcome.problem_rows === 0 && (
              <Button type="button" onClick={() => void run(stage)}>
                <FileUp aria-hidden /> Import {count(stage.outcome.total, 'row')}
              </Button>
            )}
          </div>
        </>
      )}
      {stage.step === 'checking' && <ProgressBar active aria-label="Checking the rows" />}
      {stage.step === 'importing' && (
        <div className="space-y-1">
          {stage.sent < 1 ? (
            <progress className="h-2 w-full" max={1} value={stage.sent} aria-label="Sending the rows" />
          ) : (
            <ProgressBar active aria-label="Writing the rows" />
          )}
          <p className="text-sm text-muted-foreground" aria-live="polite">
            {stage.sent < 1 ? `Sending the rows: ${Math.round(stage.sent * 100)} %` : 'Writing the rows, all in one go…'}
          </p>
        </div>
      )}
      {stage.step === 'checked' && <CheckOutcome outcome={stage.outcome} kind={kind} />}
      {stage.step === 'done' && <DoneOutcome outcome={stage.outcome} kind={kind} />}
    </div>
  );
}

/** The first rows of the file as read, for the eye to confirm it is the right one. */
function Preview({ headers, rows }: { headers: string[]; rows: Cell[][] }) {
  return (
    <FramedTable>
      <TableHeader>
        <TableRow>
          <TableHead>Row</TableHead>
          {headers.map((header, index) => (
            <TableHead key={index}>{header}</TableHead>
          ))}
        </TableRow>
      </TableHeader>
      <TableBody>
        {rows.slice(0, 5).map((cells, index) => (
          <TableRow key={index}>
            <TableCell className="text-muted-foreground">{index + 2}</TableCell>
            {headers.map((_, at) => (
              <TableCell key={at}>{cells[at] === null || cells[at] === undefined ? '' : String(cells[at])}</TableCell>
            ))}
          </TableRow>
        ))}
      </TableBody>
    </FramedTable>
  );
}

function CheckOutcome({ outcome, kind }: { outcome: ImportOutcome; kind: ImportKind }) {
  if (outcome.problem_rows > 0) {
    return (
      <HeadedSection
        headingId="problems-heading"
        title={`${count(outcome.problem_rows, 'row')} of ${outcome.total.toLocaleString('en-US')} to correct before anything is imported`}
        className="space-y-2"
        headingClassName="text-lg font-semibold text-destructive"
      >
        <ProblemTable outcome={outcome} />
      </HeadedSection>
    );
  }
  return (
    <div className="space-y-2 text-sm" aria-live="polite">
      <p>
        Ready: {newRecords(kind, outcome.created)}, {count(outcome.updated, 'update')}
        {outcome.changes.length > 0 &&
          ` (${outcome.changes.map((change) => `${change.field} in ${count(change.records, 'record')}`).join(', ')})`}
        , {count(outcome.skipped, 'row')} skipped as already here
        {outcome.unchanged > 0 && `, ${count(outcome.unchanged, 'row')} already as the file says`}.
      </p>
      {outcome.made.length > 0 && (
        <>
          <p>It will also make what the rows name and the business does not have yet:</p>
          <ul className="list-disc space-y-1 pl-5">
            {outcome.made.map((made) => (
              <li key={made} className={made.includes('did you mean') ? 'font-medium text-destructive' : undefined}>
                {made}
              </li>
            ))}
          </ul>
        </>
      )}
    </div>
  );
}

function ProblemTable({ outcome }: { outcome: ImportOutcome }) {
  return (
    <>
      <FramedTable>
        <TableHeader>
          <TableRow>
            <TableHead>Row</TableHead>
            <TableHead>What is wrong</TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          {outcome.problems.map((problem) => (
            <TableRow key={problem.row}>
              <TableCell>{problem.row}</TableCell>
              <TableCell>{problem.messages.join(' ')}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </FramedTable>
      {outcome.problem_rows > outcome.problems.length && (
        <p className="text-sm text-muted-foreground">…and {count(outcome.problem_rows - outcome.problems.length, 'more row')}.</p>
      )}
    </>
  );
}

function DoneOutcome({ outcome, kind }: { outcome: ImportOutcome; kind: ImportKind }) {
  const listed = getResource(kind.listedIn ?? kind.resource);
  return (
    <HeadedSection headingId="done-heading" title="Imported" className="space-y-2 rounded-lg border p-4">
      <p className="text-sm">
        {importedWords(kind, outcome)}
        {outcome.made.length > 0 && `; also made: ${outcome.made.join(', ')}`}.
      </p>
      {outcome.adjustments.map((adjustment) => (
        <p key={adjustment.id} className="text-sm">
          Posted in{' '}
          <Link to="/$resource/$id" params={{ resource: 'stock-adjustments', id: String(adjustment.id) }} className="underline">
            stock adjustment {adjustment.number}
          </Link>
          .
        </p>
      ))}
      <Link to="/$resource" params={{ resource: listed.name }} className="text-sm underline">
        Open {listed.plural}
      </Link>
    </HeadedSection>
  );
}

/** Sends the rows, reporting the share sent (0 to 1); an import needs the connection. */
function send(kind: ImportKindName, body: object, idempotencyKey: string, onSent: (share: number) => void): Promise<ImportOutcome> {
  return postWithProgress<ImportOutcome>(`/api/imports/${kind}`, JSON.stringify(body), {
    expected: 200,
    contentType: 'application/json',
    idempotencyKey,
    onProgress: onSent,
  });
}
