import { expect, test } from '@playwright/test';
import { API } from '../../src/shared/api/paths';
import { newAccount, postViaApi, signUpViaApi, WALK_TIMEOUT } from './helpers';

/**
 * Blocks (issue 17 point 4), at both viewports: block from a profile through the dialog; the
 * blocked user's posts leave the blocker's feed and search; to the blocked user (a second
 * browser) the blocker's profile is not found; unblock from Settings → Blocked Accounts.
 */
test('block from a profile, hidden both ways, unblock from Blocked Accounts', async ({ page, browser }) => {
  test.setTimeout(WALK_TIMEOUT);
  const word = `blk${Date.now().toString(36)}`;
  const description = `${word} noisy neighbour #loud`;

  // The blocked user, in a browser of their own, posts something.
  const other = await browser.newContext();
  const blocked = await signUpViaApi(other.request, newAccount('blkd'));
  await postViaApi(other.request, description);

  const me = await signUpViaApi(page.request, newAccount('blkr'));
  await page.goto('/');
  await expect(page.getByAltText(description)).toBeVisible();

  await page.goto(`/@${blocked.username}`);
  await page.getByRole('button', { name: 'Block', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: `Block @${blocked.username}?` });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText("They aren't told.");
  // Cancel is focused first: Enter never blocks by accident.
  await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await dialog.getByRole('button', { name: 'Block', exact: true }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText(`You blocked @${blocked.username}.`)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Unblock' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Follow', exact: true })).toHaveCount(0);
  await expect(page.getByAltText(description)).toHaveCount(0);

  // Gone from the feed and from search.
  await page.goto('/');
  await expect(page.getByRole('tabpanel')).toBeVisible();
  await expect(page.getByAltText(description)).toHaveCount(0);
  await page.goto(`/search/${word}`);
  await expect(page.getByText(/No posts found/)).toBeVisible();

  // To the blocked user, the blocker does not exist.
  const otherPage = await other.newPage();
  await otherPage.goto(`/@${me.username}`);
  await expect(otherPage.getByText('User not found!')).toBeVisible();
  expect((await other.request.put(API.follow(me.username))).status()).toBe(404);

  // Undone from Settings → Blocked Accounts.
  await page.goto('/settings');
  await page.getByRole('link', { name: 'Blocked Accounts' }).click();
  await expect(page).toHaveURL('/settings/blocked');
  const list = page.getByRole('list', { name: 'Blocked Accounts' });
  await expect(list.getByRole('listitem')).toHaveCount(1);
  await list.getByRole('button', { name: `Unblock @${blocked.username}` }).click();
  await expect(page.getByText("You haven't blocked anyone.")).toBeVisible();

  await page.goto(`/search/${word}`);
  await expect(page.getByAltText(description)).toBeVisible();
  await otherPage.goto(`/@${me.username}`);
  await expect(otherPage.getByRole('heading', { name: `@${me.username}` })).toBeVisible();
  await other.close();
});
