import {
  ArrowDownToLine,
  Banknote,
  Boxes,
  Building2,
  ClipboardList,
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
  Tag,
  Tags,
  Truck,
  Undo2,
  Users,
  Warehouse,
  Wrench,
  Layers,
} from 'lucide-react';
import { SERVICE_PRICES_PERMISSION, VIEW_ACTIVITY_PERMISSION } from '../../../domain/permissions';
import { findResource } from '../../../domain/resources/registry';

export interface NavigationLink {
  label: string;
  /** The resource whose list it opens; none: the overview. */
  resource?: string;
  icon: LucideIcon;
  /** Shown with the master permission or this one; none: shown to everyone signed in. */
  permission?: string;
  /** Marked "Under Development": the product has not built it yet. */
  underDevelopment?: boolean;
  /** Its screens have not landed yet: shown marked, not followed. */
  unavailable?: boolean;
}

export interface NavigationGroup {
  label: string;
  links: NavigationLink[];
}

/** A link to a resource: needs `view-{resource}`; unavailable until its screens exist. */
function resource(label: string, name: string, icon: LucideIcon, extra: Partial<NavigationLink> = {}): NavigationLink {
  return { label, resource: name, icon, permission: `view-${name}`, unavailable: !findResource(name), ...extra };
}

/** The sidebar: its groups and links, in order. Quotations, businesses and contact types have routes but no link. */
export const NAVIGATION: NavigationGroup[] = [
  { label: 'Dashboards', links: [{ label: 'Overview', icon: LayoutDashboard }] },
  {
    label: 'Inventory',
    links: [
      resource('Brands', 'brands', Tag),
      resource('Measuring Masses', 'measuring-masses', Scale),
      resource('Unit of Measurements', 'unit-of-measurements', Ruler),
      resource('Item Classifications', 'item-classifications', Layers),
      resource('Item Types', 'item-types', Tags),
      resource('Items', 'items', Package),
      resource('Stocks', 'stocks', Boxes),
    ],
  },
  {
    label: 'Purchasing',
    links: [
      resource('Purchase Item Prices', 'purchase-item-prices', HandCoins),
      resource('Purchase Orders', 'purchase-orders', ShoppingCart),
      resource('Receive Orders', 'receive-orders', ArrowDownToLine),
      resource('Bills', 'bills', Receipt),
      resource('Bill Payments', 'bill-payments', Banknote),
    ],
  },
  {
    label: 'Sales & Services',
    links: [
      resource('Sale Item Prices', 'sale-item-prices', Tags),
      resource('Service Prices', 'service-prices', HandCoins, { permission: SERVICE_PRICES_PERMISSION, underDevelopment: true }),
      resource('Services', 'services', Wrench, { underDevelopment: true }),
      resource('Invoices', 'invoices', ReceiptText),
      resource('Invoice Payments', 'invoice-payments', Banknote),
    ],
  },
  {
    label: 'Logistics',
    links: [
      resource('Stock Requests', 'stock-requests', ClipboardList),
      resource('Stock Transfers', 'stock-transfers', Truck),
      resource('Stock Receives', 'stock-receives', PackageCheck),
      resource('Stock Returns', 'stock-returns', Undo2),
    ],
  },
  {
    label: 'Management',
    links: [
      resource('Warehouses', 'warehouses', Warehouse),
      resource('Branches', 'branches', Building2),
      resource('Contacts', 'contacts', Contact),
      resource('Users', 'users', Users),
      resource('Roles', 'roles', ShieldCheck),
      resource('Permissions', 'permissions', KeyRound),
      // Not a resource: `/activity` is a static screen, and the sidebar links it like a list.
      { label: 'Activity', resource: 'activity', icon: History, permission: VIEW_ACTIVITY_PERMISSION },
    ],
  },
];

/** The groups and links this user may see: a link by its permission, a group when a link is. */
export function visibleNavigation(can: (permission: string) => boolean): NavigationGroup[] {
  return NAVIGATION.map((group) => ({ ...group, links: group.links.filter((link) => !link.permission || can(link.permission)) })).filter(
    (group) => group.links.length > 0,
  );
}
