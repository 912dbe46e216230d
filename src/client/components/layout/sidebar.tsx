import { Link } from '@tanstack/react-router';
import { ChevronDown } from 'lucide-react';
import { Suspense, useState } from 'react';
import { usePermissions } from '../../lib/session';
import { cn } from '../../lib/utils';
import { Collapsible, CollapsibleContent, CollapsibleTrigger } from '../ui/collapsible';
import { lazyAhead } from '../ui/deferred';
import { visibleNavigation, type NavigationLink } from './navigation';

/** The rail's tooltips load once a pointer is over the rail: until then its links show their short labels only. */
const RailTooltip = lazyAhead(() => import('./rail-tooltip').then(({ RailTooltip }) => RailTooltip));

const linkClass =
  'flex min-h-11 items-center gap-3 rounded-md px-3 text-sm font-medium outline-none hover:bg-sidebar-accent hover:text-sidebar-accent-foreground focus-visible:ring-2 focus-visible:ring-sidebar-ring';
const activeClass = 'bg-sidebar-accent text-sidebar-accent-foreground';
/** In the rail, a link stacks its icon over its label. */
const railClass = 'flex-col justify-center gap-0.5 px-1 py-1';

function LinkBody({ link, collapsed }: { link: NavigationLink; collapsed: boolean }) {
  const Icon = link.icon;
  return (
    <>
      <Icon className="size-4 shrink-0" aria-hidden />
      {collapsed ? (
        // The rail is labelled too: a short line under each icon, not icons to guess at.
        <span className="line-clamp-2 w-full text-center text-[10px] leading-tight break-words">{link.label}</span>
      ) : (
        // The whole label always shows, on two lines when it does not fit on one.
        <span className="min-w-0 flex-1 py-1.5 break-words">{link.label}</span>
      )}
    </>
  );
}

function SidebarLink({
  link,
  collapsed,
  hinting,
  onNavigate,
}: {
  link: NavigationLink;
  collapsed: boolean;
  hinting?: boolean;
  onNavigate?: () => void;
}) {
  const item = link.resource ? (
    <Link
      to="/$resource"
      params={{ resource: link.resource }}
      className={cn(linkClass, collapsed && railClass)}
      activeProps={{ className: activeClass }}
      onClick={onNavigate}
    >
      <LinkBody link={link} collapsed={collapsed} />
    </Link>
  ) : (
    <Link to="/overview" className={cn(linkClass, collapsed && railClass)} activeProps={{ className: activeClass }} onClick={onNavigate}>
      <LinkBody link={link} collapsed={collapsed} />
    </Link>
  );
  if (!collapsed || !hinting) return item;
  return (
    <Suspense fallback={item}>
      <RailTooltip label={link.label}>{item}</RailTooltip>
    </Suspense>
  );
}

/** The sidebar's groups, each link shown only with its permission (or the master one), or to whom its own rule shows it. */
export function Sidebar({ collapsed, onNavigate }: { collapsed: boolean; onNavigate?: () => void }) {
  const permissions = usePermissions();
  const groups = visibleNavigation(permissions);
  const [closed, setClosed] = useState<ReadonlySet<string>>(new Set());
  const [hinting, setHinting] = useState(false);
  const toggle = (label: string) =>
    setClosed((current) => {
      const next = new Set(current);
      if (!next.delete(label)) next.add(label);
      return next;
    });

  return (
    <nav className="space-y-1 p-2" aria-label="Sections" onPointerOver={collapsed && !hinting ? () => setHinting(true) : undefined}>
      {groups.map((group) =>
        collapsed ? (
          <ul key={group.label} className="space-y-1 border-b border-sidebar-border pb-1 last:border-0" aria-label={group.label}>
            {group.links.map((link) => (
              <li key={link.label}>
                <SidebarLink link={link} collapsed hinting={hinting} onNavigate={onNavigate} />
              </li>
            ))}
          </ul>
        ) : (
          <Collapsible key={group.label} open={!closed.has(group.label)} onOpenChange={() => toggle(group.label)}>
            <CollapsibleTrigger className="flex min-h-9 w-full items-center justify-between rounded-md px-3 text-xs font-semibold tracking-wide text-muted-foreground uppercase outline-none hover:text-sidebar-foreground focus-visible:ring-2 focus-visible:ring-sidebar-ring">
              {group.label}
              <ChevronDown className={cn('size-4 transition-transform', closed.has(group.label) && '-rotate-90')} aria-hidden />
            </CollapsibleTrigger>
            <CollapsibleContent>
              <ul className="space-y-0.5 pb-2">
                {group.links.map((link) => (
                  <li key={link.label}>
                    <SidebarLink link={link} collapsed={false} onNavigate={onNavigate} />
                  </li>
                ))}
              </ul>
            </CollapsibleContent>
          </Collapsible>
        ),
      )}
    </nav>
  );
}
