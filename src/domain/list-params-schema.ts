import { z } from 'zod';
import { DEFAULT_PAGE_SIZE, PAGE_SIZES } from './list-params';
import type { ResourceDefinition } from './resource';

/** The query of `GET /api/{resource}` (list-params.ts) as the server checks it. */

const flag = (name: string) =>
  z
    .enum(['0', '1', 'true', 'false'], { error: `The ${name.replaceAll('_', ' ')} field must be 0 or 1.` })
    .transform((value) => value === '1' || value === 'true')
    .default(false);

const wholeNumber = (name: string, min: number, max: number) =>
  z
    .string()
    .regex(/^\d+$/, `The ${name.replaceAll('_', ' ')} field must be an integer.`)
    .transform(Number)
    .pipe(
      z
        .number()
        .min(min, `The ${name.replaceAll('_', ' ')} field must be at least ${min}.`)
        .max(max, `The ${name.replaceAll('_', ' ')} field must not be greater than ${max}.`),
    )
    // A query string is text: the document says the whole number its digits must name.
    .meta({ type: 'integer', minimum: min, maximum: max, pattern: undefined });

/** Which page of a list, and how many rows a page holds: a list's query, and a report's. */
export const PAGING = {
  page: wholeNumber('page', 1, 1_000_000).default(1),
  per_page: z
    .enum(PAGE_SIZES.map(String) as [string, ...string[]], {
      error: `The per page field must be one of ${PAGE_SIZES.join(', ')}.`,
    })
    .transform(Number)
    .default(DEFAULT_PAGE_SIZE)
    .meta({ type: 'integer', enum: [...PAGE_SIZES] }),
};

export function listParamsSchema(definition: ResourceDefinition) {
  const searchShape = Object.fromEntries(
    definition.search.map((name) => [
      name,
      z
        .string()
        .max(255, `The ${name.replaceAll('_', ' ')} field must not be greater than 255 characters.`)
        .optional(),
    ]),
  );
  const sortable = definition.sort as [string, ...string[]];
  return z.object({
    ...searchShape,
    ...PAGING,
    order_by: z.enum(['asc', 'desc'], { error: 'The order by field must be asc or desc.' }).default('desc'),
    order_by_field_name: z.enum(sortable, { error: `The order by field name must be one of ${sortable.join(', ')}.` }).default('id'),
    with_trashed: flag('with_trashed'),
    only_trashed: flag('only_trashed'),
    is_strict: flag('is_strict'),
    limit: wholeNumber('limit', 1, 100).optional(),
    ...(definition.pickerFields ? { q: z.string().max(255, 'The q field must not be greater than 255 characters.').optional() } : {}),
  });
}

export type ListParams = z.output<ReturnType<typeof listParamsSchema>> & Record<string, unknown>;
