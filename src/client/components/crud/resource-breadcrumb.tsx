import { Link } from '@tanstack/react-router';
import type { ResourceDefinition } from '../../../domain/resource';
import { Breadcrumb, BreadcrumbItem, BreadcrumbLink, BreadcrumbList, BreadcrumbPage, BreadcrumbSeparator } from '../ui/breadcrumb';

/** Spec 2.4: the plural name linking to the index, then the current action. */
export function ResourceBreadcrumb({ definition, current }: { definition: ResourceDefinition; current: string }) {
  return (
    <Breadcrumb>
      <BreadcrumbList>
        <BreadcrumbItem>
          <BreadcrumbLink asChild>
            <Link to="/$resource" params={{ resource: definition.name }}>
              {definition.plural}
            </Link>
          </BreadcrumbLink>
        </BreadcrumbItem>
        <BreadcrumbSeparator />
        <BreadcrumbItem>
          <BreadcrumbPage>{current}</BreadcrumbPage>
        </BreadcrumbItem>
      </BreadcrumbList>
    </Breadcrumb>
  );
}
