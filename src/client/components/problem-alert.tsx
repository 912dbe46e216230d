/**
 * A problem the screen announces (a failed read, a refusal, what is wrong with the whole form): in
 * red, and read out at once. Several are run together; without one, nothing shows.
 */
export function ProblemAlert({ problem }: { problem: string | readonly string[] | null | undefined }) {
  const text = typeof problem === 'string' ? problem : problem?.join(' ');
  if (!text) return null;
  return (
    <p role="alert" className="text-sm text-destructive">
      {text}
    </p>
  );
}
