import { useQuery } from '@tanstack/react-query';
import { Navigate, useNavigate, useParams, useRouter } from '@tanstack/react-router';
import { ArrowLeft } from 'lucide-react';
import { useState } from 'react';
import { roles } from '../../../domain/resources/roles';
import { users } from '../../../domain/resources/users';
import { listQuery, recordQuery } from '../../lib/resource-queries';
import { submitChange } from '../../lib/outbox';
import { useActiveBusinessId, useCan } from '../../lib/session';
import { reportFailure, reportSettled } from '../../components/crud/record-actions';
import { ResourceBreadcrumb } from '../../components/crud/resource-breadcrumb';
import { NotFoundScreen } from '../../components/layout/not-found-screen';
import { Button } from '../../components/ui/button';
import { Checkbox } from '../../components/ui/checkbox';
import { Label } from '../../components/ui/label';
import { ProgressBar } from '../../components/ui/progress-bar';

/** `/users/{id}/assign-roles`: the roles of this business, checked for the ones the user holds. */
export function AssignRolesScreen() {
  const { id } = useParams({ strict: false }) as { id: string };
  const userId = /^\d+$/.test(id) ? Number(id) : 0;
  const businessId = useActiveBusinessId();
  const canUpdate = useCan('update-users');
  const user = useQuery({ ...recordQuery(businessId, users, userId), enabled: userId > 0 });
  const roleList = useQuery(listQuery(businessId, roles, { per_page: 100, order_by: 'asc', order_by_field_name: 'name' }));

  if (!userId || user.error) return <NotFoundScreen what="user" />;
  if (!canUpdate) return <Navigate to="/$resource" params={{ resource: 'users' }} replace />;
  if (!user.data || !roleList.data) return <ProgressBar active />;
  return (
    <RoleChecklist
      key={user.data.version}
      userId={userId}
      userName={String(user.data.name)}
      held={user.data.role_ids as number[]}
      roles={roleList.data.data.map((role) => ({
        id: Number(role.id),
        name: String(role.name),
        description: role.description as string | null,
      }))}
    />
  );
}

function RoleChecklist({
  userId,
  userName,
  held,
  roles: choices,
}: {
  userId: number;
  userName: string;
  held: number[];
  roles: { id: number; name: string; description: string | null }[];
}) {
  const [checked, setChecked] = useState<ReadonlySet<number>>(new Set(held));
  const [busy, setBusy] = useState(false);
  const businessId = useActiveBusinessId();
  const navigate = useNavigate();
  const router = useRouter();

  const save = async () => {
    setBusy(true);
    try {
      const settled = await submitChange({
        businessId,
        resource: 'users',
        action: 'assign',
        recordId: userId,
        method: 'PUT',
        path: `/api/users/${userId}/roles`,
        body: { role_ids: [...checked] },
        label: `Assign roles to User ${userName}`,
      });
      reportSettled(settled, 'User updated successfully.');
      void navigate({ to: '/$resource/$id', params: { resource: 'users', id: String(userId) } });
    } catch (error) {
      reportFailure(error);
    } finally {
      setBusy(false);
    }
  };

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
              <Checkbox
                id={`role-${role.id}`}
                checked={checked.has(role.id)}
                onCheckedChange={(on) =>
                  setChecked((current) => {
                    const next = new Set(current);
                    if (on === true) next.add(role.id);
                    else next.delete(role.id);
                    return next;
                  })
                }
              />
              <Label htmlFor={`role-${role.id}`} className="flex flex-col items-start gap-0.5 font-normal">
                <span className="font-medium">{role.name}</span>
                {role.description && <span className="text-sm text-muted-foreground">{role.description}</span>}
              </Label>
            </li>
          ))}
        </ul>
      </fieldset>
      <div className="flex gap-3">
        <Button variant="outline" onClick={() => router.history.back()} disabled={busy}>
          <ArrowLeft aria-hidden /> Back
        </Button>
        <Button onClick={() => void save()} disabled={busy}>
          {busy ? 'Saving…' : 'Save Roles'}
        </Button>
      </div>
    </div>
  );
}
