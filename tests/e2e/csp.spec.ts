import { expect, test, type Page } from '@playwright/test';
import { newAccount, postViaApi, signUpViaApi } from './helpers';

/**
 * Our CSP (script-src 'self') must never be broken by our own code: every violation is reported
 * (and Lighthouse marks the page down), even when the code catches the refusal, as zod's probe
 * for eval did.
 */
async function recordViolations(page: Page) {
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { cspViolations: string[] }).cspViolations = seen;
    document.addEventListener('securitypolicyviolation', (event) => seen.push(`${event.violatedDirective} ${event.blockedURI}`));
  });
  return () => page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations);
}

test('the feed, a post, a profile and search run without a CSP violation', async ({ page }) => {
  const author = newAccount('csp');
  await signUpViaApi(page.request, author);
  const id = await postViaApi(page.request, `Quiet corner ${Date.now()} #csp`);
  // The feed is everyone else's posts: look as another student.
  await signUpViaApi(page.request, newAccount('cspview'));
  const violations = await recordViolations(page);
  for (const [path, ready] of [
    ['/', page.getByRole('link', { name: /Quiet corner/ }).first()],
    [`/post/${id}`, page.getByRole('heading', { level: 1, name: /Quiet corner/ })],
    [`/@${author.username}`, page.getByRole('link', { name: /Quiet corner/ }).first()],
    ['/search/csp', page.getByRole('link', { name: /Quiet corner/ }).first()],
  ] as const) {
    await page.goto(path);
    await expect(ready).toBeVisible();
    expect(await violations(), path).toEqual([]);
  }
});
