import { expect, test, type Page } from '@playwright/test';
import { newAccount, signUpViaApi, WALK_TIMEOUT } from './helpers';
import { photo } from './images';

/**
 * What users type is shown as text, never run (OWASP ASVS V3.2.2): markup in a description, a
 * bio and a search query appears literally, no element or script of it reaches the page, and a
 * javascript: link is refused before it is sent. React's escaping and the CSP both stand in the
 * way; this checks what the user actually sees.
 */

/** Markup that would run if it were ever parsed as HTML. `__pwned` records any that did. */
const attack = (marker: number) => `<img src=x onerror="window.__pwned=${marker}"><script>window.__pwned=${marker}</script><b>bold</b>`;

/** Fails the test on any alert()/confirm() a payload might raise, and on injected elements. */
async function expectNothingRan(page: Page) {
  expect(await page.evaluate(() => (window as { __pwned?: number }).__pwned)).toBeUndefined();
  // No element was made out of the text.
  await expect(page.locator('img[src="x"]')).toHaveCount(0);
  await expect(page.locator('script:not([src])')).toHaveCount(0);
  await expect(page.locator('b', { hasText: 'bold' })).toHaveCount(0);
}

async function upload(page: Page, description: string, link: string) {
  await page.goto('/upload');
  await page.getByLabel('Choose a photo').setInputFiles(await photo('hostile'));
  await page.getByPlaceholder('Share something #wicked').fill(description);
  await page.getByLabel('Link a website').fill(link);
  await page.getByRole('button', { name: 'Post' }).click();
  return page.getByRole('dialog');
}

test('markup in a description, a bio and a search query is shown as text and never runs', async ({ page }) => {
  test.setTimeout(WALK_TIMEOUT);
  const dialogs: string[] = [];
  page.on('dialog', async (dialog) => {
    dialogs.push(dialog.message());
    await dialog.dismiss();
  });
  const me = await signUpViaApi(page.request, newAccount('xss'));

  // A javascript: link never leaves the browser.
  const refused = await upload(page, 'harmless #xss', 'javascript:window.__pwned=9');
  await expect(refused).toContainText('An error occurred!');
  await expect(refused).toContainText('Links must start with http:// or https://');
  await refused.getByRole('button', { name: 'Home' }).click();

  const description = `${attack(1)} #xss`;
  const posted = await upload(page, description, 'https://example.com/?q="><script>window.__pwned=5</script>');
  await expect(posted).toContainText('Successfully #posted!');
  await posted.getByRole('button', { name: 'Home' }).click();

  // The profile grid (the feed's cards; the feed leaves out one's own posts): the card names
  // its photo with the text, as text.
  await page.goto(`/@${me.username}`);
  const card = page.getByAltText(description);
  await expect(card).toBeVisible();
  await expectNothingRan(page);

  // The post: the description literally, hashtags, and a link that only ever goes to http(s).
  await card.click();
  await expect(page).toHaveURL(/\/post\//);
  await expect(page.getByText(attack(1), { exact: false })).toBeVisible();
  const visit = page.getByRole('link', { name: 'Visit Site' });
  await expect(visit).toHaveAttribute('href', /^https:\/\/example\.com\//);
  await expect(visit).toHaveAttribute('rel', /noopener/);
  await expectNothingRan(page);

  // A bio.
  await page.goto('/settings/account');
  await page.getByLabel('Edit Bio').fill(attack(2));
  await page.getByRole('button', { name: 'Update' }).click();
  await expect(page.getByRole('dialog')).toContainText('Profile successfully updated');
  await page.goto(`/@${me.username}`);
  await expect(page.getByText(attack(2))).toBeVisible();
  await expectNothingRan(page);

  // A search query, echoed on the results page (and matching the post's keywords).
  const query = '<img src=x onerror=alert(3)>';
  await page.goto('/');
  const box = page.getByRole('searchbox');
  await box.fill(query);
  await box.press('Enter');
  await expect(page).toHaveURL(/\/search\//);
  await expect(page.getByText(query).first()).toBeVisible();
  await expectNothingRan(page);

  expect(dialogs).toEqual([]);
});
