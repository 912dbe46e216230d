/** What a change of a field was: API values (pesos, not centavos), never a secret. */
export type FieldChanges = Record<string, { from: unknown; to: unknown }>;

/** One entry of the activity log, as `GET /api/activity` and `GET /api/{x}/{id}/activity` answer it. */
export interface ActivityEntry {
  id: number;
  resource: string;
  record_id: number;
  action: string;
  summary: string | null;
  changes: FieldChanges | null;
  user_id: number;
  /** Null for changes the system made (the demo seed) or by a user since deleted. */
  user_name: string | null;
  /** On the server's clock. */
  happened_at: string;
  /** On the device's clock, for changes sent from its outbox. */
  made_at: string | null;
  made_offline: boolean;
}
