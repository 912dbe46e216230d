import { useQuery } from '@tanstack/react-query';
import { Navigate, useNavigate, useParams, useRouter } from '@tanstack/react-router';
import { ArrowLeft } from 'lucide-react';
import { useMemo, useState } from 'react';
import { permissions as permissionsDefinition } from '../../../domain/resources/permissions';
import { roles } from '../../../domain/resources/roles';
import { api } from '../../lib/api';
import { recordQuery, type ListAnswer } from '../../lib/resource-queries';
import { submitChange } from '../../lib/outbox';
import { useActiveBusinessId, useCan } from '../../lib/session';
import { reportFailure, reportSettled } from '../../components/crud/record-actions';
import { ResourceBreadcrumb } from '../../components/crud/resource-breadcrumb';
import { NotFoundScreen } from '../../components/layout/not-found-screen';
import { SearchInput } from '../../components/search-input';
import { Button } from '../../components/ui/button';
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
  const { id } = useParams({ strict: false }) as { id: string };
  const roleId = /^\d+$/.test(id) ? Number(id) : 0;
  const businessId = useActiveBusinessId();
  const canUpdate = useCan('update-roles');
  const role = useQuery({ ...recordQuery(businessId, roles, roleId), enabled: roleId > 0 });
  const permissions = useQuery({
    queryKey: [businessId, permissionsDefinition.name, 'all'],
    queryFn: allPermissions,
    staleTime: 10 * 60_000,
  });

  if (!roleId || role.error) return <NotFoundScreen what="role" />;
  if (!canUpdate) return <Navigate to="/$resource" params={{ resource: 'roles' }} replace />;
  if (!role.data || !permissions.data) return <ProgressBar active />;
  return (
    <PermissionChecklist
      key={role.data.version}
      roleId={roleId}
      roleName={String(role.data.name)}
      granted={role.data.permission_ids as number[]}
      permissions={permissions.data}
    />
  );
}

function PermissionChecklist({
  roleId,
  roleName,
  granted,
  permissions,
}: {
  roleId: number;
  roleName: string;
  granted: number[];
  permissions: Permission[];
}) {
  const [checked, setChecked] = useState<ReadonlySet<number>>(new Set(granted));
  const [filter, setFilter] = useState('');
  const [busy, setBusy] = useState(false);
  const businessId = useActiveBusinessId();
  const navigate = useNavigate();
  const router = useRouter();

  const groups = useMemo(() => {
    const byGroup = new Map<string, Permission[]>();
    const term = filter.trim().toLowerCase();
    for (const permission of permissions) {
      if (term && !permission.name.includes(term) && !permission.group.includes(term)) continue;
      byGroup.set(permission.group, [...(byGroup.get(permission.group) ?? []), permission]);
    }
    return [...byGroup.entries()].sort(([a], [b]) => a.localeCompare(b));
  }, [permissions, filter]);

  const toggle = (ids: number[], on: boolean) =>
    setChecked((current) => {
      const next = new Set(current);
      for (const id of ids) {
        if (on) next.add(id);
        else next.delete(id);
      }
      return next;
    });

  const save = async () => {
    setBusy(true);
    try {
      const settled = await submitChange({
        businessId,
        resource: 'roles',
        action: 'assign',
        recordId: roleId,
        method: 'PUT',
        path: `/api/roles/${roleId}/permissions`,
        body: { permission_ids: [...checked] },
        label: `Assign permissions to Role ${roleName}`,
      });
      reportSettled(settled, 'Role updated successfully.');
      void navigate({ to: '/$resource/$id', params: { resource: 'roles', id: String(roleId) } });
    } catch (error) {
      reportFailure(error);
    } finally {
      setBusy(false);
    }
  };

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
      <div className="sticky bottom-0 flex gap-3 border-t bg-background py-3">
        <Button variant="outline" onClick={() => router.history.back()} disabled={busy}>
          <ArrowLeft aria-hidden /> Back
        </Button>
        <Button onClick={() => void save()} disabled={busy}>
          {busy ? 'Saving…' : 'Save Permissions'}
        </Button>
      </div>
    </div>
  );
}
