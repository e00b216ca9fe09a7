import type { ReactNode } from 'react';

/** One labelled value in a facts list (`<dl className="facts">`): receipts, details, status. */
export function Fact({ label, children }: { label: ReactNode; children: ReactNode }) {
  return (
    <div>
      <dt>{label}</dt>
      <dd>{children}</dd>
    </div>
  );
}
