import { useQueryClient } from '@tanstack/react-query';
import { useNavigate, useSearch } from '@tanstack/react-router';
import { useState } from 'react';
import { api, ApiError, describeError } from '../../lib/api';
import { resumeAfterSignIn } from '../../lib/outbox';
import { Button } from '../../components/ui/button';
import { Input } from '../../components/ui/input';
import { LabelledField } from '../../components/labelled-field';
import { ProgressBar } from '../../components/ui/progress-bar';

/** Sign-in: email and password; one clear message when they do not match. */
export function LoginScreen() {
  const { redirect } = useSearch({ strict: false }) as { redirect?: string };
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async () => {
    setBusy(true);
    setError(null);
    try {
      const { user } = await api<{ user: { id: number } }>('POST', '/api/auth/login', { body: { email, password } });
      await queryClient.resetQueries({ queryKey: ['session'] });
      // Changes a 401 held back on this device go now, if they are this user's.
      resumeAfterSignIn(user.id);
      const target = redirect && redirect.startsWith('/') && !redirect.startsWith('/login') ? redirect : '/';
      void navigate({ href: target });
    } catch (failure) {
      setError(
        failure instanceof ApiError && failure.status === 429
          ? 'Too many attempts. Wait a minute, then try again.'
          : describeError(failure),
      );
    } finally {
      setBusy(false);
    }
  };

  return (
    <main className="flex min-h-svh items-center justify-center bg-muted/40 p-4">
      <div className="w-full max-w-sm overflow-hidden rounded-xl border bg-card shadow-sm">
        <ProgressBar active={busy} />
        <form
          className="space-y-5 p-6"
          onSubmit={(event) => {
            event.preventDefault();
            void submit();
          }}
        >
          <div className="space-y-1">
            <h1 className="text-2xl font-bold tracking-tight text-primary">Bodega</h1>
            <p className="text-sm text-muted-foreground">Sign in to your back office.</p>
          </div>
          {error && (
            <p role="alert" className="rounded-md border border-destructive/40 bg-destructive/10 p-3 text-sm text-destructive">
              {error}
            </p>
          )}
          <LabelledField id="email" label="Email">
            <Input
              id="email"
              type="email"
              autoComplete="username"
              required
              value={email}
              onChange={(event) => setEmail(event.target.value)}
              autoFocus
            />
          </LabelledField>
          <LabelledField id="password" label="Password">
            <Input
              id="password"
              type="password"
              autoComplete="current-password"
              required
              value={password}
              onChange={(event) => setPassword(event.target.value)}
            />
          </LabelledField>
          <Button type="submit" className="w-full" disabled={busy}>
            {busy ? 'Signing in…' : 'Sign in'}
          </Button>
        </form>
      </div>
    </main>
  );
}
