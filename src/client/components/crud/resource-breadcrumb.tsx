import { Link } from '@tanstack/react-router';
import type { ResourceDefinition } from '../../../domain/resource';
import { Breadcrumb, BreadcrumbItem, BreadcrumbLink, BreadcrumbList, BreadcrumbPage, BreadcrumbSeparator } from '../ui/breadcrumb';

/**
 * The breadcrumb: the plural name linking to the index, then the current action; a nested record (a
 * file of a record) puts its record between them.
 */
export function ResourceBreadcrumb({
  definition,
  record,
  current,
}: {
  definition: ResourceDefinition;
  record?: { id: string; label: string };
  current: string;
}) {
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
        {record && (
          <>
            <BreadcrumbItem>
              <BreadcrumbLink asChild>
                <Link to="/$resource/$id" params={{ resource: definition.name, id: record.id }}>
                  {record.label}
                </Link>
              </BreadcrumbLink>
            </BreadcrumbItem>
            <BreadcrumbSeparator />
          </>
        )}
        <BreadcrumbItem>
          <BreadcrumbPage>{current}</BreadcrumbPage>
        </BreadcrumbItem>
      </BreadcrumbList>
    </Breadcrumb>
  );
}
