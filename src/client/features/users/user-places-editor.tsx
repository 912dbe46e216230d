import { useEffect, type ComponentProps } from 'react';
import { TriangleAlert } from 'lucide-react';
import type { PlaceType } from '../../../domain/places';
import type { FormSection } from '../../components/crud/slots';
import { LevelChoice } from '../../components/places/level-choice';
import { usePlaces } from '../../lib/places';
import { cn } from '../../lib/utils';
import { changesAll, defaultPlaces, placeRows, withLevel, worksAtProblem, type PlaceRow, type UserPlaces } from './user-places';
import { ProblemAlert } from '../../components/problem-alert';

const HEADINGS: Record<PlaceType, string> = { branch: 'Branches', warehouse: 'Warehouses' };

/**
 * A user's places in their form: "All places" and each branch and warehouse at none, view or
 * operate. The editor changes only what they hold themselves (the server refuses the rest): a
 * place where they do not operate shows greyed, "All places" only to someone operating everywhere.
 */
export function UserPlacesEditor({ value, onChange, errors, values }: ComponentProps<FormSection['Editor']>) {
  const { places, all: editorAll, loading, complete } = usePlaces();
  const current = value as UserPlaces | null;
  // A new user: what they start with once the editor's own places are known.
  useEffect(() => {
    if (current === null && !loading) onChange(defaultPlaces(editorAll));
  }, [current, loading, editorAll, onChange]);
  if (!current) return null;

  const rows = placeRows(current, places ?? [], editorAll);
  const worksAt = worksAtProblem(current, values, places ?? []);
  const messages = Object.entries(errors)
    .filter(([key]) => key === 'places' || key.startsWith('places.'))
    .flatMap(([, list]) => list);
  const allChangeable = changesAll(editorAll);

  return (
    <fieldset className="space-y-3" aria-describedby="places-help" aria-invalid={messages.length > 0 || undefined}>
      <legend className="mb-2 text-sm font-medium">Places</legend>
      <p id="places-help" className="text-sm text-muted-foreground">
        Where the user works in this business. At <strong className="font-medium">view</strong> they see a place’s stock, documents and
        figures; at <strong className="font-medium">operate</strong> they also make and change documents there.
      </p>
      <ProblemAlert problem={messages} />
      {worksAt && (
        <p role="status" className="flex items-start gap-2 rounded-md border border-warning/50 bg-warning/10 p-3 text-sm">
          <TriangleAlert className="mt-0.5 size-4 shrink-0" aria-hidden />
          {worksAt}
        </p>
      )}
      <div className="rounded-lg border bg-card">
        <PlaceLine
          name="All places"
          detail={
            allChangeable
              ? 'Every branch and warehouse, and those added later.'
              : 'Every branch and warehouse. Only someone who operates at every place can change this.'
          }
          level={current.all}
          changeable={allChangeable}
          onChange={(level) => onChange({ ...current, all: level })}
        />
      </div>
      {!complete && (
        <p className="text-sm text-muted-foreground">
          The business’s places are not available on this device yet: connect to see them all.
        </p>
      )}
      {(['branch', 'warehouse'] as const).map((type) => {
        const ofType = rows.filter((row) => row.type === type);
        if (ofType.length === 0) return null;
        return (
          <section key={type} aria-label={HEADINGS[type]} className="space-y-1">
            <h3 className="text-sm font-medium text-muted-foreground">{HEADINGS[type]}</h3>
            <ul className="rounded-lg border bg-card">
              {ofType.map((row) => (
                <li key={`${row.type}-${row.id}`} className="border-b last:border-b-0">
                  <PlaceLine
                    name={row.name}
                    code={row.code}
                    detail={rowDetail(row, complete)}
                    level={row.level}
                    changeable={row.changeable}
                    onChange={(level) => onChange(withLevel(current, row, level))}
                  />
                </li>
              ))}
            </ul>
          </section>
        );
      })}
    </fieldset>
  );
}

/**
 * What a place's line says beneath its name: why it is greyed, and what "All places" adds there;
 * one not listed is no longer a place of the business, when the whole list is known.
 */
function rowDetail(row: PlaceRow, complete: boolean): string | undefined {
  const parts = [
    ...(row.gone && complete ? ['No longer one of the business’s places.'] : []),
    ...(row.changeable
      ? []
      : [row.held === 'view' ? 'You only view this place, so you cannot give or take it.' : 'You do not work there.']),
    ...(row.throughAll ? [`${row.throughAll === 'operate' ? 'Operates' : 'Views'} here through All places.`] : []),
  ];
  return parts.length > 0 ? parts.join(' ') : undefined;
}

function PlaceLine({
  name,
  code,
  detail,
  level,
  changeable,
  onChange,
}: {
  name: string;
  code?: string;
  detail?: string;
  level: UserPlaces['all'];
  changeable: boolean;
  onChange: (level: UserPlaces['all']) => void;
}) {
  return (
    // A phone: the choice under the name, across the line; wider: beside it.
    <div className={cn('grid gap-2 px-3 py-2 sm:flex sm:items-center sm:justify-between sm:gap-4', !changeable && 'text-muted-foreground')}>
      <div className="min-w-0">
        <p className={cn('font-medium', !changeable && 'font-normal')}>
          {name}
          {code && <span className="ml-2 font-mono text-xs text-muted-foreground">{code}</span>}
        </p>
        {detail && <p className="text-xs text-muted-foreground">{detail}</p>}
      </div>
      <LevelChoice label={`${name}: level`} value={level} onChange={onChange} disabled={!changeable} />
    </div>
  );
}
