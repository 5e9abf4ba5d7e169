import { expect, test, type Page } from '@playwright/test';
import { newAccount, postViaApi, signUpViaApi } from './helpers';

const isDesktop = (page: Page) => (page.viewportSize()?.width ?? 0) >= 1024;

/** The product name the server wrote into the page (APP_NAME). */
const appName = (page: Page) => page.locator('meta[name="application-name"]').getAttribute('content');

test('a desktop has a top bar with the name, search and the three destinations; a phone the bottom bar', async ({ page }) => {
  const me = await signUpViaApi(page.request, newAccount('bars'));
  await page.goto('/');
  const name = (await appName(page)) ?? 'dormboard';
  // Only one navigation landmark named Main, whichever bar it is.
  const nav = page.getByRole('navigation', { name: 'Main' });
  await expect(nav).toHaveCount(1);
  await expect(nav.getByRole('link', { name: 'Home' })).toBeVisible();
  await expect(nav.getByRole('link', { name: 'Upload' })).toBeVisible();
  await expect(nav.getByRole('link', { name: 'Your profile' })).toBeVisible();
  const banner = page.getByRole('banner');
  const box = (await nav.boundingBox())!;

  if (isDesktop(page)) {
    await expect(banner.getByRole('link', { name, exact: true })).toBeVisible();
    await expect(banner.getByRole('searchbox')).toBeVisible();
    await expect(banner.getByRole('navigation', { name: 'Main' })).toBeVisible();
    expect(box.y).toBeLessThan(80);
    // The name goes home; the profile picture to one's profile.
    await nav.getByRole('link', { name: 'Your profile' }).click();
    await expect(page).toHaveURL(`/@${me.username}`);
    await banner.getByRole('link', { name, exact: true }).click();
    await expect(page).toHaveURL('/');
  } else {
    await expect(page.getByRole('link', { name, exact: true })).toHaveCount(0);
    await expect(page.getByRole('searchbox')).toHaveCount(1);
    expect(box.y + box.height).toBeGreaterThan(844 - 2);
  }
});

test('the bar: tapping the current destination stays put; signed out, the profile picture asks to sign in', async ({ page }) => {
  await signUpViaApi(page.request, newAccount('tabs'));
  await page.goto('/upload');
  const nav = page.getByRole('navigation', { name: 'Main' });
  const upload = nav.getByRole('link', { name: 'Upload' });
  await expect(upload).toHaveAttribute('aria-current', 'page');
  const historyLength = await page.evaluate(() => history.length);
  await upload.click();
  await expect(page).toHaveURL('/upload');
  expect(await page.evaluate(() => history.length)).toBe(historyLength);

  await page.context().clearCookies();
  await page.goto('/search/coffee');
  await nav.getByRole('button', { name: 'Your profile' }).click();
  await expect(page.getByRole('dialog')).toContainText('Not signed in!');
});

test('the feed fills the content width, in reading order', async ({ page }) => {
  await signUpViaApi(page.request, newAccount('poster'));
  // Tall and wide photos, so that the columns differ in height.
  for (let index = 0; index < 8; index++) await postViaApi(page.request, `layout ${index}`);
  await signUpViaApi(page.request, newAccount('viewer'));
  await page.goto('/');
  const grid = page.getByRole('list', { name: 'Posts' });
  const cards = grid.getByRole('listitem');
  await expect(cards.nth(7)).toBeVisible();
  const gridBox = (await grid.boundingBox())!;
  const viewport = page.viewportSize()!;
  const boxes = await cards.evaluateAll((items) => items.slice(0, 12).map((item) => item.getBoundingClientRect().toJSON() as DOMRect));
  const columns = new Set(boxes.map((box) => Math.round(box.x)));

  if (isDesktop(page)) {
    // 1280 px: five columns across a centered 1200 px content area.
    expect(columns.size).toBe(5);
    expect(gridBox.width).toBeGreaterThan(1100);
    expect(Math.abs(gridBox.x - (viewport.width - gridBox.x - gridBox.width))).toBeLessThan(2);
  } else {
    expect(columns.size).toBe(2);
  }
  // Cards come in the order they are seen: row by row (top edges never go up), left to right.
  for (let index = 1; index < boxes.length; index++) {
    const [before, card] = [boxes[index - 1]!, boxes[index]!];
    expect(card.y).toBeGreaterThanOrEqual(before.y - 1);
    if (Math.abs(card.y - before.y) < 1) expect(card.x).toBeGreaterThan(before.x);
  }
});

test('Back on a page opened directly goes home; after a step in the app it goes back', async ({ page }) => {
  await signUpViaApi(page.request, newAccount('back'));
  await page.goto('/settings');
  await page.getByRole('link', { name: 'Account Settings' }).click();
  await expect(page).toHaveURL('/settings/account');
  await page.getByRole('button', { name: 'Back' }).click();
  await expect(page).toHaveURL('/settings');
  await page.getByRole('button', { name: 'Back' }).click();
  await expect(page).toHaveURL('/');
  await expect(page.getByRole('tab', { name: 'Home' })).toBeVisible();

  // Go Back on a missing profile, opened from a shared link.
  await page.goto('/@no_such_student');
  await page.getByRole('button', { name: 'Go Back' }).click();
  await expect(page).toHaveURL('/');
});

test("Your University's Go Back returns to the Home tab", async ({ page }) => {
  await signUpViaApi(page.request, newAccount('uni'));
  await page.goto('/');
  await page.getByRole('tab', { name: 'Your University' }).click();
  await page.getByRole('button', { name: 'Go Back' }).click();
  await expect(page).toHaveURL('/');
  const home = page.getByRole('tab', { name: 'Home' });
  await expect(home).toHaveAttribute('aria-selected', 'true');
  await expect(home).toBeFocused();
  await expect(page.getByText('Still working on it!')).toHaveCount(0);
});

test('every screen has its own tab title', async ({ page }) => {
  const me = await signUpViaApi(page.request, newAccount('titles'));
  await postViaApi(page.request, 'a title for the tab');
  await page.goto('/');
  const name = (await appName(page)) ?? 'dormboard';
  await expect(page).toHaveTitle(name);
  const screens: Array<[string, string]> = [
    ['/upload', 'Upload'],
    ['/search/coffee', 'Search: coffee'],
    [`/@${me.username}`, `@${me.username}`],
    [`/@${me.username}/followers`, `Followers of @${me.username}`],
    ['/settings', 'Settings'],
    ['/settings/account', 'Account Settings'],
    ['/404', 'Not found :('],
  ];
  for (const [url, title] of screens) {
    await page.goto(url);
    await expect(page).toHaveTitle(`${title} · ${name}`);
  }
  await page.goto(`/@${me.username}`);
  await page.getByAltText('a title for the tab').click();
  await expect(page).toHaveTitle(`Post · ${name}`);
});

test('the skip link is the first stop and moves focus to the content', async ({ page }) => {
  await signUpViaApi(page.request, newAccount('skip'));
  await page.goto('/');
  await expect(page.getByRole('tab', { name: 'Home' })).toBeVisible();
  await page.keyboard.press('Tab');
  const skip = page.getByRole('link', { name: 'Skip to content' });
  await expect(skip).toBeFocused();
  await expect(skip).toBeInViewport();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('main')).toBeFocused();
  await expect(page).toHaveURL('/');
  // The next stop is the first thing in the content, past the bars.
  await page.keyboard.press('Tab');
  await expect(page.getByRole('tab', { name: 'Home' })).toBeFocused();
});

test('with a full feed, Upload is a few Tab presses from the top, not past every card', async ({ page }) => {
  await signUpViaApi(page.request, newAccount('poster'));
  for (let index = 0; index < 12; index++) await postViaApi(page.request, `tab order ${index}`);
  await signUpViaApi(page.request, newAccount('keys'));
  await page.goto('/');
  await expect(page.getByRole('main').getByRole('link').nth(11)).toBeVisible();
  const upload = page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Upload' });
  let presses = 0;
  while (presses < 8 && !(await upload.evaluate((element) => element === document.activeElement))) {
    await page.keyboard.press('Tab');
    presses += 1;
  }
  await expect(upload).toBeFocused();
  // Skip link, then (desktop) the name, the search box and the activity bell, then Home, then Upload.
  expect(presses).toBeLessThanOrEqual(isDesktop(page) ? 6 : 3);
});
