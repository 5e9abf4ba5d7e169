import { expect, test, type Browser } from '@playwright/test';
import { API } from '../../src/shared/api/paths';
import { newAccount, signIn, signUpViaApi } from './helpers';

/** Settings → Security (issue 16): Change Password and Sessions, in the browser. */

const FIREFOX_WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0';

/** Another browser signed in to the same account (its own cookies), as a laptop elsewhere. */
async function signedInElsewhere(browser: Browser, account: { username: string; password: string }) {
  const context = await browser.newContext({ userAgent: FIREFOX_WINDOWS });
  const response = await context.request.post(API.login, { data: { identifier: account.username, password: account.password } });
  expect(response.ok()).toBe(true);
  return context;
}

test('change password: the rules first, then the current password, then every other device is signed out', async ({ page, browser }) => {
  const account = await signUpViaApi(page.request, newAccount('chpw'));
  const laptop = await signedInElsewhere(browser, account);

  await page.goto('/settings');
  await page.getByRole('link', { name: 'Change Password' }).click();
  await expect(page).toHaveURL('/settings/password');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Change Password');

  const errors = page.getByTestId('password-errors');
  await page.getByLabel('Current password').fill(account.password);
  await page.getByLabel('New password', { exact: true }).fill('short');
  await page.getByLabel('Confirm new password').fill('shorter');
  await page.getByRole('button', { name: 'Change Password' }).click();
  await expect(errors).toHaveText(['Password must be 8-32 characters long.', 'Passwords do not match.'].join('\n'));

  await page.getByLabel('Current password').fill('not my password');
  await page.getByLabel('New password', { exact: true }).fill('a brand new secret');
  await page.getByLabel('Confirm new password').fill('a brand new secret');
  await page.getByRole('button', { name: 'Change Password' }).click();
  await expect(errors).toHaveText('Incorrect password.');

  await page.getByLabel('Current password').fill(account.password);
  await page.getByRole('button', { name: 'Change Password' }).click();
  const done = page.getByRole('dialog', { name: 'Password changed' });
  await expect(done).toBeVisible();
  await expect(done).toContainText('Every other device has been signed out.');
  await done.getByRole('button', { name: 'Home' }).click();
  await expect(page).toHaveURL('/');

  // This browser stays signed in; the laptop is signed out; the new password signs in.
  expect((await page.request.get(API.me)).status()).toBe(200);
  expect((await laptop.request.get(API.me)).status()).toBe(401);
  await laptop.close();
  const fresh = await browser.newPage();
  await signIn(fresh, account.username, 'a brand new secret');
  await expect(fresh).toHaveURL('/');
  await fresh.close();
});

test('sessions: every device listed, another one signed out from here, then this one', async ({ page, browser }) => {
  const account = await signUpViaApi(page.request, newAccount('sess'));
  const laptop = await signedInElsewhere(browser, account);

  await page.goto('/settings');
  await page.getByRole('link', { name: 'Sessions' }).click();
  await expect(page).toHaveURL('/settings/sessions');
  const rows = page.getByRole('list', { name: 'Sessions' }).getByRole('listitem');
  await expect(rows).toHaveCount(2);
  const mine = rows.filter({ hasText: 'This device' });
  await expect(mine).toContainText('Chrome');
  await expect(mine).toContainText(/Signed in now · active now/);
  const other = rows.filter({ hasText: 'Firefox 133 on Windows' });
  await expect(other).toBeVisible();

  await other.getByRole('button', { name: /Sign Out/ }).click();
  await expect(rows).toHaveCount(1);
  expect((await laptop.request.get(API.me)).status()).toBe(401);
  await laptop.close();

  // This device asks first, like Settings' Sign Out.
  await mine.getByRole('button', { name: /Sign Out/ }).click();
  const dialog = page.getByRole('dialog', { name: "No don't leave us!" });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await dialog.getByRole('button', { name: 'Sign Out' }).click();
  await expect(page).toHaveURL('/login');
  expect((await page.request.get(API.me)).status()).toBe(401);
});
