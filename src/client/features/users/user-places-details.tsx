import type { RecordProps } from '../../components/crud/slots';
import { describedPlaces, type UserPlaces } from './user-places';

/** A user's places among their details: "All places" and each single place, with its level. */
export function UserPlacesDetails({ record }: RecordProps) {
  // A user created on this device lists none until the server has them.
  if (!('places' in record)) return null;
  const lines = describedPlaces(record.places as UserPlaces | null);
  return (
    <div className="contents">
      <dt className="border-b px-4 pt-3 text-sm font-medium text-muted-foreground sm:py-3">Places</dt>
      <dd className="border-b px-4 pb-3 break-words sm:py-3">
        {lines.length === 0 ? (
          'None: they see no place’s stock or documents'
        ) : (
          <ul>
            {lines.map((line) => (
              <li key={line}>{line}</li>
            ))}
          </ul>
        )}
      </dd>
    </div>
  );
}
