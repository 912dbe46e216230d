import { z } from 'zod';

/**
 * Pieces of the API's answers that stores describe beside what they add to records (their
 * `decorated`), and the routes' answers use too (routes/responses.ts).
 */

/** A warehouse or branch named by a record that is at, or moves goods between, such places. */
export const placeAnswer = z.looseObject({ id: z.number().int().nullable(), display: z.string().nullable() });
