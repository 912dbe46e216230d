import type { ReactNode } from 'react';

/**
 * A section named by its heading: the `<h2>` (id `headingId`) is the section's accessible name.
 * Given `actions`, the heading shares a row with them (buttons, toggles), wrapping on a narrow screen.
 */
export function HeadedSection({
  headingId,
  title,
  className,
  headingClassName = 'text-lg font-semibold',
  actions,
  children,
}: {
  headingId: string;
  title: ReactNode;
  className?: string;
  headingClassName?: string;
  actions?: ReactNode;
  children?: ReactNode;
}) {
  const heading = (
    <h2 id={headingId} className={headingClassName}>
      {title}
    </h2>
  );
  return (
    <section aria-labelledby={headingId} className={className}>
      {actions === undefined ? (
        heading
      ) : (
        <div className="flex flex-wrap items-center justify-between gap-2">
          {heading}
          {actions}
        </div>
      )}
      {children}
    </section>
  );
}
