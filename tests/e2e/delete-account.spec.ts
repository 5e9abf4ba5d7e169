import { expect, test } from '@playwright/test';
import { API } from '../../src/shared/api/paths';
import { loginErrors, newAccount, postViaApi, signIn, signUpViaApi } from './helpers';

/** Settings → Security → Delete Account (issue 16 point 5), in the browser. */

test('delete account: what goes, the password, the confirmation; then signed out, unable to sign in, the profile gone', async ({
  page,
  browser,
}) => {
  const account = await signUpViaApi(page.request, newAccount('bye'));
  await postViaApi(page.request, 'last light on the quad #goodbye');
  // Someone else looking at the profile, before and after.
  const visitor = await browser.newPage();
  await visitor.goto(`/@${account.username}`);
  await expect(visitor.getByRole('heading', { name: `@${account.username}` })).toBeVisible();

  await page.goto('/settings');
  await page.getByRole('link', { name: 'Delete Account' }).click();
  await expect(page).toHaveURL('/settings/delete');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Delete Account');
  await expect(page.getByRole('main')).toContainText('your posts and every photo you uploaded');
  await expect(page.getByRole('main')).toContainText('This cannot be undone.');
  await expect(page.getByRole('link', { name: 'Download your data first.' })).toHaveAttribute('href', '/settings/data');

  const errors = page.getByTestId('delete-errors');
  const remove = page.getByRole('button', { name: 'Delete Account' });
  await remove.click();
  await expect(errors).toHaveText('Fill in all the fields.');
  await expect(page.getByRole('dialog')).toHaveCount(0);

  // A wrong password: asked to confirm, then refused, and nothing is gone.
  await page.getByLabel('Password').fill('not my password');
  await remove.click();
  let dialog = page.getByRole('dialog', { name: 'Gone for good?' });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'Delete Account' }).click();
  await expect(errors).toHaveText('Incorrect password.');
  expect((await page.request.get(API.me)).status()).toBe(200);

  // The right one: the dialog focuses Cancel (Enter must not erase), Escape changes nothing.
  await page.getByLabel('Password').fill(account.password);
  await remove.click();
  dialog = page.getByRole('dialog', { name: 'Gone for good?' });
  await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  await expect(remove).toBeFocused();
  expect((await page.request.get(API.me)).status()).toBe(200);

  await remove.click();
  await dialog.getByRole('button', { name: 'Delete Account' }).click();
  await expect(page).toHaveURL('/login');
  // This browser forgot the account (the spec's localStorage copy too).
  expect(await page.evaluate(() => localStorage.getItem('currentUser'))).toBeNull();
  expect((await page.request.get(API.me)).status()).toBe(401);

  await signIn(page, account.username, account.password);
  await expect(loginErrors(page)).toHaveText('Username not registered.');
  await signIn(page, account.email, account.password);
  await expect(loginErrors(page)).toHaveText('Incorrect log in details.');

  await visitor.reload();
  await expect(visitor.getByText('User not found!')).toBeVisible();
  await visitor.close();
});
