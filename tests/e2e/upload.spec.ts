import { expect, test, type Locator } from '@playwright/test';
import { newAccount, signUpViaApi, WALK_TIMEOUT } from './helpers';
import { photo } from './images';

/** In the viewport and on top (not under the bottom bar or anything else) at its centre. */
function isReachable(target: Locator) {
  return target.evaluate((element) => {
    const box = element.getBoundingClientRect();
    const hit = document.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2);
    return box.top >= 0 && box.bottom <= window.innerHeight && hit !== null && element.contains(hit);
  });
}

test('upload: Post stays in view with a tall photo; the link placeholder is the bare host', async ({ page }) => {
  await signUpViaApi(page.request, newAccount('upview'));
  await page.goto('/upload');
  const host = await page.evaluate(() => window.location.host);
  await expect(page.getByLabel('Link a website')).toHaveAttribute('placeholder', host);
  expect(host).not.toMatch(/^https?:/);

  await page.getByLabel('Choose a photo').setInputFiles(await photo('tall', 600, 1400));
  await expect(page.getByAltText('What you chose to post')).toBeVisible();
  await page.getByPlaceholder('Share something #wicked').fill('A tall one');
  expect(await isReachable(page.getByRole('button', { name: 'Post' }))).toBe(true);
});

test('upload: an error popup closes back to the draft (Close, Escape, a tap outside); success offers View post', async ({ page }) => {
  test.setTimeout(WALK_TIMEOUT);
  await signUpViaApi(page.request, newAccount('updraft'));
  await page.goto('/upload');
  await page.getByLabel('Choose a photo').setInputFiles(await photo('draft'));
  const description = page.getByPlaceholder('Share something #wicked');
  const link = page.getByLabel('Link a website');
  await description.fill('x'.repeat(201));
  await link.fill('https://example.com/draft');

  const failWith = async () => {
    await page.getByRole('button', { name: 'Post' }).click();
    const dialog = page.getByRole('dialog');
    await expect(dialog).toContainText('An error occurred!');
    await expect(dialog).toContainText('Description is too long');
    await expect(dialog.getByRole('button', { name: 'Home' })).toBeVisible();
    return dialog;
  };
  const draftIsIntact = async () => {
    await expect(page.getByRole('dialog')).toHaveCount(0);
    await expect(page).toHaveURL('/upload');
    await expect(description).toHaveValue('x'.repeat(201));
    await expect(link).toHaveValue('https://example.com/draft');
    await expect(page.getByAltText('What you chose to post')).toBeVisible();
  };

  await (await failWith()).getByRole('button', { name: 'Close' }).click();
  await draftIsIntact();
  await failWith();
  await page.keyboard.press('Escape');
  await draftIsIntact();
  await failWith();
  await page.mouse.click(4, 4);
  await draftIsIntact();

  // Fixed, it posts; View post opens the new post.
  const text = `Fixed draft ${Date.now()}`;
  await description.fill(text);
  await page.getByRole('button', { name: 'Post' }).click();
  const done = page.getByRole('dialog');
  await expect(done).toContainText("Let's go viral!");
  await expect(done.getByRole('button', { name: 'Home' })).toBeVisible();
  await done.getByRole('button', { name: 'View post' }).click();
  await expect(page).toHaveURL(/\/post\/[^/]+$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(text);
  await expect(page.getByRole('link', { name: 'Visit Site' })).toHaveAttribute('href', 'https://example.com/draft');
});
