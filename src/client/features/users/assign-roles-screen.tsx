import { useQuery } from '@tanstack/react-query';
import { roles } from '../../../domain/resources/roles';
import { users } from '../../../domain/resources/users';
import { listQuery, type ApiRecord } from '../../lib/resource-queries';
import { useActiveBusinessId } from '../../lib/session';
import { AssignmentButtons, useAssignedRecord, useAssignment } from '../../components/crud/assignment';
import { ResourceBreadcrumb } from '../../components/crud/resource-breadcrumb';
import { Checkbox } from '../../components/ui/checkbox';
import { Label } from '../../components/ui/label';
import { ProgressBar } from '../../components/ui/progress-bar';

/** `/users/{id}/assign-roles`: the roles of this business, checked for the ones the user holds. */
export function AssignRolesScreen() {
  const { record: user, gate } = useAssignedRecord(users);
  const businessId = useActiveBusinessId();
  const roleList = useQuery(listQuery(businessId, roles, { per_page: 100, order_by: 'asc', order_by_field_name: 'name' }));

  const gated = gate(roleList.data !== undefined);
  if (gated || !user || !roleList.data) return gated;
  return (
    <RoleChecklist
      key={user.version}
      user={user}
      roles={roleList.data.data.map((role) => ({
        id: Number(role.id),
        name: String(role.name),
        description: role.description as string | null,
      }))}
    />
  );
}

function RoleChecklist({ user, roles: choices }: { user: ApiRecord; roles: { id: number; name: string; description: string | null }[] }) {
  const { recordName: userName, checked, toggle, busy, save } = useAssignment(users, user, 'roles');

  return (
    <div className="max-w-2xl space-y-4">
      <ResourceBreadcrumb definition={users} current="Assign Roles" />
      <h1 className="text-2xl font-semibold tracking-tight">Roles of {userName}</h1>
      <ProgressBar active={busy} />
      <fieldset className="rounded-lg border bg-card p-3">
        <legend className="sr-only">Roles</legend>
        <ul>
          {choices.map((role) => (
            <li key={role.id} className="flex min-h-14 items-center gap-3 border-b last:border-0">
              <Checkbox id={`role-${role.id}`} checked={checked.has(role.id)} onCheckedChange={(on) => toggle([role.id], on === true)} />
              <Label htmlFor={`role-${role.id}`} className="flex flex-col items-start gap-0.5 font-normal">
                <span className="font-medium">{role.name}</span>
                {role.description && <span className="text-sm text-muted-foreground">{role.description}</span>}
              </Label>
            </li>
          ))}
        </ul>
      </fieldset>
      <AssignmentButtons className="flex gap-3" busy={busy} onSave={save} saveLabel="Save Roles" />
    </div>
  );
}
