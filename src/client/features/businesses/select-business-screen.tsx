import { useQuery } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { Building2, Check } from 'lucide-react';
import { businessesQuery, useActiveBusinessId, useSwitchBusiness } from '../../lib/session';
import { Button } from '../../components/ui/button';
import { ProgressBar } from '../../components/ui/progress-bar';

/** `/businesses/select`: every business of the user; choosing one makes it the active one. */
export function SelectBusinessScreen() {
  const businesses = useQuery(businessesQuery());
  const activeId = useActiveBusinessId();
  const switchBusiness = useSwitchBusiness();
  const navigate = useNavigate();

  return (
    <div className="max-w-2xl space-y-4">
      <h1 className="text-2xl font-semibold tracking-tight">Select a business</h1>
      <p className="text-muted-foreground">Everything you see and record belongs to the business chosen here.</p>
      <ProgressBar active={businesses.isFetching} />
      <ul className="grid gap-2">
        {businesses.data?.map((business) => (
          <li key={business.id}>
            <Button
              variant={business.id === activeId ? 'default' : 'outline'}
              className="h-auto min-h-14 w-full justify-start gap-3 text-left"
              aria-current={business.id === activeId ? 'true' : undefined}
              onClick={() => {
                switchBusiness(business.id);
                void navigate({ to: '/overview' });
              }}
            >
              <Building2 aria-hidden />
              <span className="flex-1">{business.name}</span>
              {business.id === activeId && <Check aria-label="Active" />}
            </Button>
          </li>
        ))}
      </ul>
    </div>
  );
}
