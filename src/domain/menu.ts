/**
 * What a resource declares of how the client shows it, in words the domain may hold: the icon
 * standing for it is a key the client draws (`client/components/layout/icons.ts`), never a
 * component, and its menu group a name the client orders (`client/components/layout/navigation.ts`).
 */

/** The icons a resource may declare, by their lucide names. */
export type IconKey =
  | 'arrow-down-to-line'
  | 'banknote'
  | 'boxes'
  | 'building-2'
  | 'clipboard-check'
  | 'clipboard-list'
  | 'contact'
  | 'credit-card'
  | 'file-minus'
  | 'hand-coins'
  | 'key-round'
  | 'layers'
  | 'package'
  | 'package-check'
  | 'receipt'
  | 'receipt-text'
  | 'ruler'
  | 'scale'
  | 'shield-check'
  | 'shopping-cart'
  | 'sliders-horizontal'
  | 'tag'
  | 'tags'
  | 'truck'
  | 'undo-2'
  | 'users'
  | 'warehouse';

/** The sidebar groups a resource's list may be linked under. */
export type MenuGroup = 'Inventory' | 'Purchasing' | 'Sales & Services' | 'Logistics' | 'Management';

/** Where a resource's list is linked in the sidebar: its group (links keep the registry's order there) and its icon. */
export interface MenuEntry {
  group: MenuGroup;
  icon: IconKey;
}
