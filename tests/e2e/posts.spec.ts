import { expect, test, type Page } from '@playwright/test';
import { holdRequests, newAccount, postViaApi, signInViaApi, signUpViaApi, WALK_TIMEOUT } from './helpers';
import { photo } from './images';

async function upload(page: Page, description: string, link = '') {
  await page.goto('/upload');
  await expect(page.getByRole('heading', { name: 'Upload' })).toBeVisible();
  await page.getByLabel('Choose a photo').setInputFiles(await photo(description.slice(0, 12)));
  await expect(page.getByAltText('What you chose to post')).toBeVisible();
  await page.getByPlaceholder('Share something #wicked').fill(description);
  if (link) await page.getByLabel('Link a website').fill(link);
  await page.getByRole('button', { name: 'Post' }).click();
}

test('upload, see it in another feed, open it, delete it', async ({ page }) => {
  test.setTimeout(WALK_TIMEOUT);
  const author = await signUpViaApi(page.request, newAccount('author'));
  const description = `Dorm room glow-up ${Date.now()} #studentliving #DormLife`;
  await upload(page, description, 'https://example.com/room');
  const done = page.getByRole('dialog');
  await expect(done).toContainText("Let's go viral!");
  await expect(done).toContainText('Successfully #posted!');
  await done.getByRole('button', { name: 'Home' }).click();
  await expect(page).toHaveURL('/');
  // Your own posts are not in your home feed.
  await expect(page.getByAltText(description)).toHaveCount(0);

  // Another student, in the same browser (the author's session is replaced), sees it.
  const viewer = await signUpViaApi(page.request, newAccount('viewer'));
  await page.goto('/');
  const card = page.getByAltText(description);
  await expect(card).toBeVisible();
  // Grid cards use the small variants, never the full-size photo.
  await expect(card).toHaveAttribute('srcset', /-400\.webp 400w, .*-800\.webp 800w/);
  expect(await card.getAttribute('src')).not.toContain('-full');
  // currentSrc stays empty until the lazy image starts loading.
  await expect.poll(() => card.evaluate((img: HTMLImageElement) => img.currentSrc)).toMatch(/-(400|800)\.webp$/);
  await card.click();

  await expect(page).toHaveURL(/\/post\//);
  // The heading is the description without its closing hashtags: they are the line below.
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(description.replace(' #studentliving #DormLife', ''));
  await expect(page.getByText('#studentliving #dormlife', { exact: true })).toBeVisible();
  await expect(page.getByRole('link', { name: `@${author.username}` })).toBeVisible();
  const visit = page.getByRole('link', { name: 'Visit Site' });
  await expect(visit).toHaveAttribute('href', 'https://example.com/room');
  await expect(visit).toHaveAttribute('rel', 'noopener noreferrer ugc');
  await expect(visit).toHaveAttribute('target', '_blank');
  await expect(page.getByRole('heading', { name: 'Discover' })).toBeVisible();
  // Only the author may delete.
  await expect(page.getByRole('button', { name: 'Delete' })).toHaveCount(0);
  const postUrl = page.url();

  await signInViaApi(page.request, author);
  await page.goto(postUrl);
  await page.getByRole('button', { name: 'Delete' }).click();
  const confirm = page.getByRole('dialog');
  await expect(confirm).toContainText('Mysterious is the new cool???');
  await expect(confirm).toContainText('About to erase your mark on dormboard');
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await expect(page).toHaveURL('/');

  await page.goto(postUrl);
  await expect(page.getByText('No awesome content!')).toBeVisible();
  await expect(page.getByText('Are you sure this post exists?')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Go Back' })).toBeVisible();
  expect(viewer.username).not.toBe(author.username);
});

test('related posts share a hashtag', async ({ page }) => {
  const tag = `#t${Date.now().toString(36)}`;
  await signUpViaApi(page.request, newAccount('rel'));
  for (const text of [`first ${tag}`, `second ${tag}`]) await postViaApi(page.request, text);
  await signUpViaApi(page.request, newAccount('relview'));
  await page.goto('/');
  await page.getByAltText(`second ${tag}`).click();
  const discover = page.getByRole('region', { name: 'Discover' });
  await expect(discover.getByAltText(`first ${tag}`)).toBeVisible();
  await expect(discover.getByAltText(`second ${tag}`)).toHaveCount(0);
});

test('upload errors appear in a popup with the error code', async ({ page }) => {
  await signUpViaApi(page.request, newAccount('uperr'));
  await page.goto('/upload');
  // No photo chosen: nothing happens.
  await page.getByRole('button', { name: 'Post' }).click();
  await expect(page.getByRole('dialog')).toHaveCount(0);

  await upload(page, 'x'.repeat(201));
  let dialog = page.getByRole('dialog');
  await expect(dialog).toContainText('An error occurred!');
  await expect(dialog).toContainText('Description is too long');
  await expect(dialog.getByRole('button', { name: 'Home' })).toBeVisible();
  await page.keyboard.press('Escape');

  await page.getByLabel(/photo/).setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('hi') });
  await page.getByPlaceholder('Share something #wicked').fill('fine');
  await page.getByRole('button', { name: 'Post' }).click();
  dialog = page.getByRole('dialog');
  await expect(dialog).toContainText('Invalid filetype');
});

test('the feed shows six skeleton cards while loading', async ({ page }) => {
  await signUpViaApi(page.request, newAccount('skel'));
  // Hold the feed response back until the skeleton has been seen (the real server still answers it).
  const releaseFeed = await holdRequests(page, '**/api/posts');
  // A signed-in page load of / carries the feed's first page (nothing to wait for): the feed
  // loads when the student comes to Home from another screen.
  await page.goto('/upload');
  await page.getByRole('link', { name: 'Home' }).click();
  const skeleton = page.getByTestId('feed-skeleton');
  await expect(skeleton).toBeVisible();
  await expect(skeleton.locator('> div > div')).toHaveCount(6);
  releaseFeed();
  await expect(skeleton).toHaveCount(0);
});

test('the bottom bar: active tab colour, and tapping the current tab stays put', async ({ page }) => {
  await signUpViaApi(page.request, newAccount('nav'));
  await page.goto('/');
  const home = page.getByRole('link', { name: 'Home' });
  await expect(home).toHaveCSS('color', 'rgb(255, 0, 72)');
  await expect(page.getByRole('link', { name: 'Upload' })).toHaveCSS('color', 'rgb(249, 249, 249)');
  const historyLength = await page.evaluate(() => history.length);
  await home.click();
  expect(await page.evaluate(() => history.length)).toBe(historyLength);
  await page.getByRole('link', { name: 'Upload' }).click();
  await expect(page).toHaveURL('/upload');
});
