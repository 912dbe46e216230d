import { CalendarClock, FileChartColumn, FileUp, History, LayoutDashboard, Store } from 'lucide-react';
import { describe, expect, it } from 'vitest';
import { IMPORT_KINDS } from '../../../domain/imports';
import { MASTER_PERMISSION, VIEW_COSTS_PERMISSION } from '../../../domain/permissions';
import { getResource, registry } from '../../../domain/resources/registry';
import { ICONS } from './icons';
import { NAVIGATION, visibleNavigation } from './navigation';

describe('navigation', () => {
  it('links every resource that declares a menu entry once, in its group, in registry order: its plural, its icon, view-{resource}', () => {
    const links = NAVIGATION.flatMap((group) => group.links.map((link) => ({ group: group.label, ...link })));
    const declared = registry.filter((definition) => definition.menu);
    expect(links.filter((link) => declared.some((definition) => definition.name === link.resource))).toEqual(
      NAVIGATION.flatMap((group) => declared.filter((definition) => definition.menu!.group === group.label)).map(
        ({ name, plural, menu }) => ({
          group: menu!.group,
          label: plural,
          resource: name,
          icon: ICONS[menu!.icon],
          permission: `view-${name}`,
        }),
      ),
    );
    // The rest are screens that are no resource's list, each where the product has it.
    expect(links.filter((link) => !declared.some((definition) => definition.name === link.resource))).toEqual([
      { group: 'Dashboards', label: 'Overview', icon: LayoutDashboard },
      { group: 'Dashboards', label: 'Reports', resource: 'reports', icon: FileChartColumn, shows: expect.any(Function) },
      { group: 'Purchasing', label: 'Payables', resource: 'payables', icon: CalendarClock, permission: 'view-bills' },
      { group: 'Sales & Services', label: 'Counter', resource: 'counter', icon: Store, permission: 'create-invoices' },
      { group: 'Sales & Services', label: 'Receivables', resource: 'receivables', icon: CalendarClock, permission: 'view-invoices' },
      { group: 'Management', label: 'Activity', resource: 'activity', icon: History, permission: 'view-activity' },
      {
        group: 'Management',
        label: 'Import',
        resource: 'imports',
        icon: FileUp,
        permission: IMPORT_KINDS.map((kind) => `create-${getResource(kind.resource).permission}`),
      },
    ]);
  });

  it('keeps the groups in the sidebar order, the counter first among sales and activity and import last', () => {
    expect(NAVIGATION.map((group) => group.label)).toEqual([
      'Dashboards',
      'Inventory',
      'Purchasing',
      'Sales & Services',
      'Logistics',
      'Management',
    ]);
    const labels = (group: string) => NAVIGATION.find((each) => each.label === group)!.links.map((link) => link.label);
    expect(labels('Sales & Services')[0]).toBe('Counter');
    expect(labels('Sales & Services').at(-1)).toBe('Receivables');
    expect(labels('Purchasing').at(-1)).toBe('Payables');
    expect(labels('Management').slice(-2)).toEqual(['Activity', 'Import']);
    // Some of what the product specification names, where it names it.
    expect(labels('Inventory')).toEqual(expect.arrayContaining(['Items', 'Stocks', 'Stock Adjustments', 'Stock Counts']));
    expect(labels('Purchasing')).toEqual(expect.arrayContaining(['Purchase Orders', 'Receive Orders', 'Bills', 'Bill Payments']));
    expect(labels('Logistics')).toEqual(expect.arrayContaining(['Stock Requests', 'Stock Transfers', 'Stock Receives', 'Stock Returns']));
  });

  it('offers no screen that is not built, to anyone: services and their prices keep their routes but have no link', () => {
    // Whoever holds every permission sees every link there is.
    const everything = visibleNavigation([MASTER_PERMISSION]);
    const linked = everything.flatMap((group) => group.links.map((link) => link.resource));
    expect(linked).not.toContain('services');
    expect(linked).not.toContain('service-prices');
    // The routes are still there for who types them: the registry keeps both resources.
    expect(getResource('services').plural).toBe('Services');
    expect(getResource('service-prices').plural).toBe('Service Prices');
  });

  it('links the reports for whoever may read the stock value or the gross margin: costs with stocks, or with invoices', () => {
    const reports = (held: string[]) =>
      visibleNavigation(held)
        .flatMap((group) => group.links)
        .some((link) => link.resource === 'reports');
    expect(reports([MASTER_PERMISSION])).toBe(true);
    expect(reports(['view-stocks', VIEW_COSTS_PERMISSION])).toBe(true);
    expect(reports(['view-invoices', VIEW_COSTS_PERMISSION])).toBe(true);
    // Costs alone, or stocks and invoices without their costs, read neither report.
    expect(reports([VIEW_COSTS_PERMISSION])).toBe(false);
    expect(reports(['view-stocks', 'view-invoices'])).toBe(false);
    expect(reports([])).toBe(false);
    // The link sits under the overview, among the dashboards.
    expect(NAVIGATION[0].links.map((link) => link.label)).toEqual(['Overview', 'Reports']);
    // Links by one permission are shown as before: any of theirs, or the master permission.
    const labels = (held: string[]) => visibleNavigation(held).flatMap((group) => group.links.map((link) => link.label));
    expect(labels(['view-activity'])).toEqual(['Overview', 'Activity']);
  });

  it('names the units in the plural of a unit of measurement, under the route the product has always had', () => {
    const units = getResource('unit-of-measurements');
    expect([units.singular, units.plural, units.name]).toEqual(['Unit of Measurement', 'Units of Measurement', 'unit-of-measurements']);
  });
});
