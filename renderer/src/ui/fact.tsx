import type { ReactNode } from 'react';

interface FactProps {
  label: ReactNode;
  children: ReactNode;
  /** Monospaced value (paths, URLs, ids). */
  mono?: boolean;
  testId?: string;
}

/** One labelled value in a facts list (`<dl className="facts">`): receipts, details, status. */
export function Fact({ label, children, mono, testId }: FactProps) {
  return (
    <div>
      <dt>{label}</dt>
      <dd className={mono ? 'mono' : undefined} data-testid={testId}>
        {children}
      </dd>
    </div>
  );
}
