import {
  ArrowDownToLine,
  Banknote,
  Boxes,
  Building2,
  ClipboardCheck,
  ClipboardList,
  FileUp,
  Contact,
  HandCoins,
  History,
  KeyRound,
  LayoutDashboard,
  type LucideIcon,
  Package,
  PackageCheck,
  Receipt,
  ReceiptText,
  Ruler,
  Scale,
  ShieldCheck,
  ShoppingCart,
  Store,
  SlidersHorizontal,
  Tag,
  Tags,
  Truck,
  Undo2,
  Users,
  Warehouse,
  Layers,
} from 'lucide-react';
import { IMPORT_KINDS } from '../../../domain/imports';
import { permissionName, VIEW_ACTIVITY_PERMISSION } from '../../../domain/permissions';
import { getResource } from '../../../domain/resources/registry';

export interface NavigationLink {
  label: string;
  /** The resource whose list it opens; none: the overview. */
  resource?: string;
  icon: LucideIcon;
  /** Shown with the master permission or this one (or any of these); none: shown to everyone signed in. */
  permission?: string | readonly string[];
}

export interface NavigationGroup {
  label: string;
  links: NavigationLink[];
}

/** A link to a resource of the registry, labelled with its plural: needs `view-{resource}`. */
function resource(name: string, icon: LucideIcon, extra: Partial<NavigationLink> = {}): NavigationLink {
  return { label: getResource(name).plural, resource: name, icon, permission: `view-${name}`, ...extra };
}

/**
 * The sidebar: its groups and links, in order. Quotations, businesses and contact types have
 * routes but no link. So do services and their prices: nothing sells a service yet (an invoice's
 * lines are items), so the menu offers no screen that leads nowhere, to anyone.
 */
export const NAVIGATION: NavigationGroup[] = [
  { label: 'Dashboards', links: [{ label: 'Overview', icon: LayoutDashboard }] },
  {
    label: 'Inventory',
    links: [
      resource('brands', Tag),
      resource('measuring-masses', Scale),
      resource('unit-of-measurements', Ruler),
      resource('item-classifications', Layers),
      resource('item-types', Tags),
      resource('items', Package),
      resource('stocks', Boxes),
      resource('stock-adjustments', SlidersHorizontal),
      resource('stock-counts', ClipboardCheck),
    ],
  },
  {
    label: 'Purchasing',
    links: [
      resource('purchase-item-prices', HandCoins),
      resource('purchase-orders', ShoppingCart),
      resource('receive-orders', ArrowDownToLine),
      resource('bills', Receipt),
      resource('bill-payments', Banknote),
    ],
  },
  {
    label: 'Sales & Services',
    links: [
      // Not a resource: `/counter` sells at a branch, making an invoice and its payment at once.
      { label: 'Counter', resource: 'counter', icon: Store, permission: permissionName('create', getResource('invoices').permission) },
      resource('sale-item-prices', Tags),
      resource('invoices', ReceiptText),
      resource('invoice-payments', Banknote),
    ],
  },
  {
    label: 'Logistics',
    links: [
      resource('stock-requests', ClipboardList),
      resource('stock-transfers', Truck),
      resource('stock-receives', PackageCheck),
      resource('stock-returns', Undo2),
    ],
  },
  {
    label: 'Management',
    links: [
      resource('warehouses', Warehouse),
      resource('branches', Building2),
      resource('contacts', Contact),
      resource('users', Users),
      resource('roles', ShieldCheck),
      resource('permissions', KeyRound),
      // Not a resource: `/activity` is a static screen, and the sidebar links it like a list.
      { label: 'Activity', resource: 'activity', icon: History, permission: VIEW_ACTIVITY_PERMISSION },
      // Not a resource either: `/imports` brings in what its user may create.
      {
        label: 'Import',
        resource: 'imports',
        icon: FileUp,
        permission: IMPORT_KINDS.map((kind) => permissionName('create', getResource(kind.resource).permission)),
      },
    ],
  },
];

/** The label of the sidebar group that links a resource's list; none for a resource it does not link. */
export const navigationGroupOf = (resource: string): string | undefined =>
  NAVIGATION.find((group) => group.links.some((link) => link.resource === resource))?.label;

/** The groups and links this user may see: a link by its permission, a group when a link is. */
export function visibleNavigation(can: (permission: string) => boolean): NavigationGroup[] {
  return NAVIGATION.map((group) => ({
    ...group,
    links: group.links.filter((link) => !link.permission || [link.permission].flat().some(can)),
  })).filter((group) => group.links.length > 0);
}
