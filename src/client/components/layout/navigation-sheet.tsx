import { Sheet, SheetContent, SheetDescription, SheetHeader, SheetTitle } from '../ui/sheet';
import { Sidebar } from './sidebar';

/** On a phone, the sidebar as a sheet from the left; following a link closes it. Loaded when first opened. */
export function NavigationSheet({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  return (
    <Sheet open={open} onOpenChange={onOpenChange}>
      <SheetContent side="left" className="w-72 overflow-y-auto bg-sidebar p-0 text-sidebar-foreground">
        <SheetHeader className="border-b">
          <SheetTitle>Bodega</SheetTitle>
          <SheetDescription className="sr-only">Main navigation</SheetDescription>
        </SheetHeader>
        <Sidebar collapsed={false} onNavigate={() => onOpenChange(false)} />
      </SheetContent>
    </Sheet>
  );
}
