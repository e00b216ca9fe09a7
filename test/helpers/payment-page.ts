/**
 * A payment page (pay link, quick invoice) filled in and posted as a browser does: the page's
 * hidden inputs kept, the payer's `fields` typed in, the form posted to its own action.
 * Answers the page itself when it has no form (it says why: paid, closed, unknown).
 */
export async function submitPaymentPage(pageUrl: string, fields: Record<string, string>): Promise<{ status: number; text: string }> {
  const page = await fetch(pageUrl);
  const html = await page.text();
  const form = new URLSearchParams();
  for (const m of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) form.set(m[1] as string, (m[2] as string).replace(/&amp;/g, '&'));
  for (const [k, v] of Object.entries(fields)) form.set(k, v);
  const action = /<form method="post" action="([^"]+)"/.exec(html)?.[1];
  if (!action) return { status: page.status, text: html };
  const res = await fetch(new URL(action, pageUrl), { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: form.toString() });
  return { status: res.status, text: await res.text() };
}
