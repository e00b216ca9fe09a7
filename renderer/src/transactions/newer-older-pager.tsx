/** The ← Newer / Older → buttons under a newest-first paged list (audit log, outbox). */
export function NewerOlderPager({ page, onPage }: { page: { page: number; pageCount: number } | null | undefined; onPage: (pageNo: number) => void }) {
  const at = page?.page ?? 1;
  return (
    <div className="form-actions audit-pager">
      <button type="button" className="btn btn-secondary btn-lg" disabled={!page || at <= 1} onClick={() => onPage(Math.max(1, at - 1))}>
        ← Newer
      </button>
      <button type="button" className="btn btn-secondary btn-lg" disabled={!page || at >= page.pageCount} onClick={() => onPage(at + 1)}>
        Older →
      </button>
    </div>
  );
}
