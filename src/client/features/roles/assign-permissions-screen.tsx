import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { permissions as permissionsDefinition } from '../../../domain/resources/permissions';
import { roles } from '../../../domain/resources/roles';
import { api } from '../../lib/api';
import type { ApiRecord, ListAnswer } from '../../lib/resource-queries';
import { useActiveBusinessId } from '../../lib/session';
import { AssignmentButtons, useAssignedRecord, useAssignment } from '../../components/crud/assignment';
import { ResourceBreadcrumb } from '../../components/crud/resource-breadcrumb';
import { SearchInput } from '../../components/search-input';
import { Checkbox } from '../../components/ui/checkbox';
import { Label } from '../../components/ui/label';
import { ProgressBar } from '../../components/ui/progress-bar';

interface Permission {
  id: number;
  name: string;
  group: string;
}

/** The whole permission list, read 100 at a time. */
async function allPermissions(): Promise<Permission[]> {
  const rows: Permission[] = [];
  for (let page = 1; ; page++) {
    const answer = await api<ListAnswer>('GET', '/api/permissions', {
      query: { page, per_page: 100, order_by: 'asc', order_by_field_name: 'name' },
    });
    rows.push(...(answer.data as unknown as Permission[]));
    if (page >= answer.meta.last_page) return rows;
  }
}

/** `/roles/{id}/assign-permissions`: permissions grouped by resource, a check-all per group, and a search. */
export function AssignPermissionsScreen() {
  const { record: role, gate } = useAssignedRecord(roles);
  const businessId = useActiveBusinessId();
  const permissions = useQuery({
    queryKey: [businessId, permissionsDefinition.name, 'all'],
    queryFn: allPermissions,
    staleTime: 10 * 60_000,
  });

  const gated = gate(permissions.data !== undefined);
  if (gated || !role || !permissions.data) return gated;
  return <PermissionChecklist key={role.version} role={role} permissions={permissions.data} />;
}

function PermissionChecklist({ role, permissions }: { role: ApiRecord; permissions: Permission[] }) {
  const { recordName: roleName, checked, toggle, busy, save } = useAssignment(roles, role, 'permissions');
  const [filter, setFilter] = useState('');

  const groups = useMemo(() => {
    const byGroup = new Map<string, Permission[]>();
    const term = filter.trim().toLowerCase();
    for (const permission of permissions) {
      if (term && !permission.name.includes(term) && !permission.group.includes(term)) continue;
      byGroup.set(permission.group, [...(byGroup.get(permission.group) ?? []), permission]);
    }
    return [...byGroup.entries()].sort(([a], [b]) => a.localeCompare(b));
  }, [permissions, filter]);

  return (
    <div className="max-w-5xl space-y-4">
      <ResourceBreadcrumb definition={roles} current="Assign Permissions" />
      <h1 className="text-2xl font-semibold tracking-tight">Permissions of {roleName}</h1>
      <div className="flex flex-wrap items-center gap-3">
        <SearchInput
          className="sm:w-72"
          value={filter}
          onChange={(event) => setFilter(event.target.value)}
          placeholder="Search permissions"
          label="Search permissions"
        />
        <p className="text-sm text-muted-foreground" aria-live="polite">
          {checked.size} of {permissions.length} granted
        </p>
      </div>
      <ProgressBar active={busy} />
      <div className="grid gap-3 md:grid-cols-2 xl:grid-cols-3">
        {groups.map(([group, members]) => {
          const ids = members.map((permission) => permission.id);
          const count = ids.filter((id) => checked.has(id)).length;
          const all = count === ids.length;
          const groupId = `group-${group}`;
          return (
            <fieldset key={group} className="rounded-lg border bg-card p-3">
              <legend className="sr-only">{group}</legend>
              <div className="flex min-h-11 items-center gap-3 border-b pb-2">
                <Checkbox
                  id={groupId}
                  checked={all ? true : count > 0 ? 'indeterminate' : false}
                  onCheckedChange={() => toggle(ids, !all)}
                />
                <Label htmlFor={groupId} className="font-semibold capitalize">
                  {group.replaceAll('-', ' ')} <span className="font-normal text-muted-foreground">(check all)</span>
                </Label>
              </div>
              <ul className="pt-1">
                {members.map((permission) => (
                  <li key={permission.id} className="flex min-h-11 items-center gap-3">
                    <Checkbox
                      id={`permission-${permission.id}`}
                      checked={checked.has(permission.id)}
                      onCheckedChange={(on) => toggle([permission.id], on === true)}
                    />
                    <Label htmlFor={`permission-${permission.id}`} className="font-normal">
                      {permission.name}
                    </Label>
                  </li>
                ))}
              </ul>
            </fieldset>
          );
        })}
        {groups.length === 0 && <p className="text-muted-foreground">No permission matches “{filter}”.</p>}
      </div>
      <AssignmentButtons
        className="sticky bottom-0 flex gap-3 border-t bg-background py-3"
        busy={busy}
        onSave={save}
        saveLabel="Save Permissions"
      />
    </div>
  );
}
