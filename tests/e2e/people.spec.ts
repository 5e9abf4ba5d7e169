import { expect, test } from '@playwright/test';
import { holdRequests, newAccount, postViaApi, signInViaApi, signUpViaApi, WALK_TIMEOUT } from './helpers';
import { photo } from './images';

test('follow from a post and from a profile; the lists show it', async ({ page }) => {
  test.setTimeout(WALK_TIMEOUT);
  const author = await signUpViaApi(page.request, newAccount('star'));
  const description = `people ${Date.now()} #campus`;
  await postViaApi(page.request, description);

  // A fan, in the same browser (the author's session is replaced).
  const fan = await signUpViaApi(page.request, newAccount('fan'));
  await page.goto('/');
  await page.getByAltText(description).click();
  const follow = page.getByRole('button', { name: 'Follow', exact: true });
  await follow.click();
  await expect(page.getByRole('button', { name: 'Unfollow' })).toBeVisible();
  await expect(page.getByText('1 follower', { exact: true })).toBeVisible();

  await page.getByRole('link', { name: `@${author.username}` }).click();
  await expect(page).toHaveURL(`/@${author.username}`);
  await expect(page.getByRole('heading', { name: `@${author.username}` })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Unfollow' })).toBeVisible();
  // Someone else's profile: the profile tab is not highlighted.
  await expect(page.getByRole('link', { name: 'Your profile' })).not.toHaveAttribute('aria-current', 'page');

  await page.getByRole('link', { name: '1 follower', exact: true }).click();
  await expect(page).toHaveURL(`/@${author.username}/followers`);
  await expect(page.getByRole('heading', { name: 'Followers' })).toBeVisible();
  const list = page.getByRole('main');
  await expect(list.getByRole('link', { name: new RegExp(`@${fan.username}`) })).toContainText('0 followers');
  await list.getByRole('link', { name: new RegExp(`@${fan.username}`) }).click();
  await expect(page).toHaveURL(`/@${fan.username}`);
  await expect(page.getByRole('link', { name: 'Settings' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Your profile' })).toHaveAttribute('aria-current', 'page');

  await page.getByRole('link', { name: '1 following', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Following' })).toBeVisible();
  await expect(list.getByRole('link', { name: new RegExp(`@${author.username}`) })).toContainText('1 follower');
  await expect(page.getByRole('link', { name: 'Your profile' })).toHaveAttribute('aria-current', 'page');

  // Unfollow from the profile.
  await page.goto(`/@${author.username}`);
  await page.getByRole('button', { name: 'Unfollow' }).click();
  await expect(page.getByRole('button', { name: 'Follow', exact: true })).toBeVisible();
  await expect(page.getByRole('link', { name: '0 followers', exact: true })).toBeVisible();

  // Following back is allowed: the author follows the fan too.
  await signInViaApi(page.request, author);
  await page.goto(`/@${fan.username}`);
  await page.getByRole('button', { name: 'Follow', exact: true }).click();
  await expect(page.getByRole('link', { name: '1 follower', exact: true })).toBeVisible();
});

test('account settings: new icon and bio in one update', async ({ page }) => {
  const me = await signUpViaApi(page.request, newAccount('icon'));
  await page.goto('/settings');
  await page.getByRole('link', { name: 'Account Settings' }).click();
  await expect(page.getByRole('heading', { name: 'Account Settings' })).toBeVisible();
  await expect(page.getByText('No bio')).toBeVisible();
  // No bio yet: the box is empty, with the spec's placeholder.
  await expect(page.getByLabel('Edit Bio')).toHaveValue('');
  await expect(page.getByLabel('Edit Bio')).toHaveAttribute('placeholder', 'Share something #wicked');
  await page.getByText('Upload Photo').click();
  await page.getByLabel('Upload Photo').setInputFiles(await photo('me', 600, 600, '#ff006e'));
  await expect(page.getByAltText('Your new icon')).toBeVisible();
  await page.getByLabel('Edit Bio').fill('Second-year, ramen enthusiast');
  await page.getByRole('button', { name: 'Update' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText('#Personalization');
  await expect(dialog).toContainText('Profile successfully updated');
  await dialog.getByRole('button', { name: 'Home' }).click();
  await expect(page).toHaveURL('/');

  await page.goto(`/@${me.username}`);
  await expect(page.getByText('Second-year, ramen enthusiast')).toBeVisible();
  const avatar = page.getByRole('img', { name: `@${me.username}` }).first();
  await expect(avatar).toHaveAttribute('src', /\/media\/profiles\/.+-320\.webp$/);

  // Back in Account Settings (a fresh load), the box starts with the current bio, to edit.
  await page.goto('/settings/account');
  await expect(page.getByLabel('Edit Bio')).toHaveValue('Second-year, ramen enthusiast');
});

test('account settings errors show the code with Home and Cancel', async ({ page }) => {
  await signUpViaApi(page.request, newAccount('iconerr'));
  await page.goto('/settings/account');
  await page.getByLabel('Upload Photo').setInputFiles({ name: 'a.txt', mimeType: 'text/plain', buffer: Buffer.from('x') });
  await page.getByRole('button', { name: 'Update' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText('An error occurred!');
  await expect(dialog).toContainText('Profile icon is in an invalid filetype');
  await expect(dialog.getByRole('button', { name: 'Home' })).toBeVisible();
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByRole('dialog')).toHaveCount(0);
});

test('profile loading, missing users, and signed-out follow', async ({ page, request }) => {
  // Made elsewhere: this browser starts signed out.
  const someone = await signUpViaApi(request, newAccount('seen'));
  await page.goto(`/@${someone.username}`);
  await page.getByRole('button', { name: 'Follow', exact: true }).click();
  await expect(page.getByRole('dialog')).toContainText('Not signed in!');

  await page.goto('/@no_such_student');
  await expect(page.getByText('User not found!')).toBeVisible();
  await expect(page.getByText("no_such_student hasn't joined dormboard yet!")).toBeVisible();
  await page.goto('/@no_such_student/followers');
  await expect(page.getByText('User not found!')).toBeVisible();

  // One's own profile, held back until its loading message has been seen.
  await signInViaApi(page.request, someone);
  const release = await holdRequests(page, '**/api/users/*');
  await page.goto(`/@${someone.username}`);
  await expect(page.getByText('Loading your story!')).toBeVisible();
  release();
  await expect(page.getByRole('heading', { name: `@${someone.username}` })).toBeVisible();
  await page.unrouteAll({ behavior: 'wait' });
});
