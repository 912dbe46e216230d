import { findResource } from '../../domain/resources/registry';

/**
 * Route names: `{prefix}.index`, `{prefix}.create`, `{prefix}.view` and `{prefix}.edit`, where view
 * and edit take an `id`; a nested file record is `{prefix}.files.view` with `recordId` and
 * `fileId`. The `{prefix}` is the resource's name, the segment of its routes (and of its
 * permission names, as no resource names another prefix).
 */
const PATTERNS = {
  index: '',
  create: '/create',
  view: '/$id',
  edit: '/$id/edit',
  'files.view': '/$recordId/files/$fileId',
} as const;
type Screen = keyof typeof PATTERNS;

const ROUTE_NAME = /^([a-z][a-z0-9-]*)\.(index|create|view|edit|files\.view)$/;

/** The path a route name leads to with its params; undefined for a route that does not exist or a param left out. */
export function routePath(routeName: string, params: Readonly<Record<string, string | number>> = {}): string | undefined {
  const match = ROUTE_NAME.exec(routeName);
  const definition = match ? findResource(match[1]) : undefined;
  if (!match || !definition) return undefined;
  const screen = match[2] as Screen;
  if (definition.readOnly && (screen === 'create' || screen === 'edit')) return undefined;
  if (screen === 'edit' && !definition.editable) return undefined;
  if (screen === 'files.view' && !definition.attachments) return undefined;
  let missing = false;
  const rest = PATTERNS[screen].replace(/\$(\w+)/g, (_, param: string) => {
    const value = String(params[param] ?? '');
    if (value === '') missing = true;
    return encodeURIComponent(value);
  });
  return missing ? undefined : `/${definition.name}${rest}`;
}

/** Only addresses of this app are followed: a path must stay on its origin however a browser reads it. */
const ORIGIN = 'http://bodega.invalid';
const onSite = (path: string) => {
  try {
    return new URL(path, ORIGIN).origin === ORIGIN;
  } catch {
    return false;
  }
};

/**
 * Where a create screen's `redirect_to` leads: a path of this app (`/purchase-orders/12`), or a
 * route name with its params as a query (`purchase-orders.view?id=12`). Anything else, and any
 * address off this site, is refused (undefined).
 */
export function redirectTarget(value: unknown): string | undefined {
  if (typeof value !== 'string' || value === '') return undefined;
  if (value.startsWith('/')) return onSite(value) && !value.startsWith('//') ? value : undefined;
  const question = value.indexOf('?');
  const name = question === -1 ? value : value.slice(0, question);
  const params = question === -1 ? {} : Object.fromEntries(new URLSearchParams(value.slice(question + 1)));
  return routePath(name, params);
}
