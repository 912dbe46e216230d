import { CalendarClock, FileChartColumn, FileUp, History, LayoutDashboard, type LucideIcon, Store } from 'lucide-react';
import { IMPORT_KINDS } from '../../../domain/imports';
import type { MenuGroup } from '../../../domain/menu';
import { holdsAny, permissionName, VIEW_ACTIVITY_PERMISSION } from '../../../domain/permissions';
import { readsMargins, readsStockValue } from '../../../domain/reports';
import { getResource, registry } from '../../../domain/resources/registry';
import { ICONS } from './icons';

export interface NavigationLink {
  label: string;
  /** The resource whose list it opens; none: the overview. */
  resource?: string;
  icon: LucideIcon;
  /** Shown with the master permission or this one (or any of these); none: shown to everyone signed in. */
  permission?: string | readonly string[];
  /** Shown to whoever this says, given their permission names: for a screen that needs more than one permission together. */
  shows?: (held: ReadonlySet<string> | readonly string[]) => boolean;
}

export interface NavigationGroup {
  label: string;
  links: NavigationLink[];
}

/**
 * The groups resources are linked under, in the sidebar's order, each with the links to screens
 * that are not a resource's list, before or after the resources'.
 */
const GROUPS: Readonly<Record<MenuGroup, { first?: NavigationLink[]; last?: NavigationLink[] }>> = {
  Inventory: {},
  Purchasing: {
    // `/payables`: what is owed each supplier, by days past due.
    last: [
      { label: 'Payables', resource: 'payables', icon: CalendarClock, permission: permissionName('view', getResource('bills').permission) },
    ],
  },
  'Sales & Services': {
    // `/counter` sells at a branch, making an invoice and its payment at once.
    first: [
      { label: 'Counter', resource: 'counter', icon: Store, permission: permissionName('create', getResource('invoices').permission) },
    ],
    // `/receivables`: what each customer owes, by days past due.
    last: [
      {
        label: 'Receivables',
        resource: 'receivables',
        icon: CalendarClock,
        permission: permissionName('view', getResource('invoices').permission),
      },
    ],
  },
  Logistics: {},
  Management: {
    last: [
      // `/activity` is a static screen, and the sidebar links it like a list.
      { label: 'Activity', resource: 'activity', icon: History, permission: VIEW_ACTIVITY_PERMISSION },
      // `/imports` brings in what its user may create.
      {
        label: 'Import',
        resource: 'imports',
        icon: FileUp,
        permission: IMPORT_KINDS.map((kind) => permissionName('create', getResource(kind.resource).permission)),
      },
    ],
  },
};

/**
 * The sidebar: its groups and links, in order. Each resource that declares a `menu` is linked in
 * its group, in registry order, labelled with its plural and shown with `view-{resource}`; one
 * that declares none keeps its routes but has no link (quotations, businesses, contact types, and
 * services and their prices: nothing sells a service yet, so the menu offers no screen that leads
 * nowhere, to anyone).
 */
export const NAVIGATION: NavigationGroup[] = [
  {
    label: 'Dashboards',
    links: [
      { label: 'Overview', icon: LayoutDashboard },
      // `/reports`: what goods cost, for whoever may read the stock value or the gross margin.
      { label: 'Reports', resource: 'reports', icon: FileChartColumn, shows: (held) => readsStockValue(held) || readsMargins(held) },
    ],
  },
  ...Object.entries(GROUPS).map(([label, { first = [], last = [] }]) => ({
    label,
    links: [
      ...first,
      ...registry.flatMap(({ name, plural, menu }) =>
        menu?.group === label ? [{ label: plural, resource: name, icon: ICONS[menu.icon], permission: `view-${name}` }] : [],
      ),
      ...last,
    ],
  })),
];

/** The label of the sidebar group that links a resource's list; none for a resource it does not link. */
export const navigationGroupOf = (resource: string): string | undefined =>
  NAVIGATION.find((group) => group.links.some((link) => link.resource === resource))?.label;

/** The groups and links a user holding `held` may see: a link by its permission (or its own rule), a group when a link is. */
export function visibleNavigation(held: ReadonlySet<string> | readonly string[]): NavigationGroup[] {
  const shown = (link: NavigationLink) => (link.shows ? link.shows(held) : !link.permission || holdsAny(held, [link.permission].flat()));
  return NAVIGATION.map((group) => ({ ...group, links: group.links.filter(shown) })).filter((group) => group.links.length > 0);
}
