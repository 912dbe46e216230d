/** One label and value of a record's details, inside a two-column `<dl>` from `sm` up. */
export function DetailRow({ label, value }: { label: string; value: string }) {
  return (
    <div className="contents">
      <dt className="border-b px-4 pt-3 text-sm font-medium text-muted-foreground sm:py-3 sm:last-of-type:border-0">{label}</dt>
      <dd className="border-b px-4 pb-3 break-words sm:py-3">{value}</dd>
    </div>
  );
}
