import { expect, test, type APIRequestContext } from '@playwright/test';
import { API } from '../../src/shared/api/paths';
import * as COPY from '../../src/shared/copy';
import { adminRole } from './admin';
import { newAccount, signIn, signUpViaApi, WALK_TIMEOUT } from './helpers';
import { photo } from './images';

/**
 * Issue 17 end to end, at both sizes: a member reports a post and its author's profile; a
 * moderator (made with the real `npm run admin -- role`) sees both in the queue, removes the
 * post, suspends the author; the log shows both; the author cannot sign in; a member gets the
 * not-found page at /moderation.
 */

async function postAs(request: APIRequestContext, description: string): Promise<string> {
  const response = await request.post(API.posts, { multipart: { photo: await photo('report'), description, link: '' } });
  expect(response.status(), await response.text()).toBe(201);
  return ((await response.json()) as { post: { id: string } }).post.id;
}

test('report → queue → Remove Post and Suspend → the log; the author is locked out', async ({ page, request, browser }) => {
  test.setTimeout(WALK_TIMEOUT);
  const author = await signUpViaApi(request, newAccount('author'));
  const postId = await postAs(request, 'Something to report #dorm');

  // A member reports the post, then the author's profile.
  const reporter = await signUpViaApi(page.request, newAccount('reporter'));
  await page.goto(`/post/${postId}`);
  await page.getByRole('button', { name: COPY.report.action }).click();
  const dialog = page.getByRole('dialog', { name: COPY.report.postTitle });
  await dialog.getByRole('button', { name: COPY.report.send }).click();
  await expect(dialog.getByTestId('report-errors')).toHaveText(COPY.report.why);
  await dialog.getByLabel('Spam').check();
  await dialog.getByRole('button', { name: COPY.report.send }).click();
  const thanks = page.getByRole('dialog', { name: COPY.report.thanksTitle });
  await expect(thanks).toContainText(COPY.report.thanksMessage);
  await thanks.getByRole('button', { name: COPY.close }).click();

  await page.goto(`/@${author.username}`);
  await page.getByRole('button', { name: COPY.report.action }).click();
  const profileDialog = page.getByRole('dialog', { name: COPY.report.profileTitle(author.username) });
  await profileDialog.getByLabel('Something else').check();
  await profileDialog.getByLabel(COPY.report.details).fill('Posts the same ad every hour');
  await profileDialog.getByRole('button', { name: COPY.report.send }).click();
  await expect(page.getByRole('dialog', { name: COPY.report.thanksTitle })).toBeVisible();

  // A member gets the not-found page at /moderation.
  await page.goto('/moderation');
  await expect(page.getByText(COPY.notFound)).toBeVisible();
  await expect(page.getByRole('button', { name: COPY.moderation.removePost })).toHaveCount(0);

  // A moderator, made on the command line.
  const staff = await browser.newContext();
  const mod = await staff.newPage();
  const moderator = await signUpViaApi(mod.request, newAccount('mod'));
  await mod.goto('/');
  await adminRole(mod, moderator.username, 'moderator');
  await mod.goto('/moderation');
  const postItem = mod
    .getByRole('listitem')
    .filter({ hasText: COPY.moderation.reportedPost })
    .filter({ hasText: `@${author.username}` });
  await expect(postItem).toContainText('Spam');
  await expect(postItem).toContainText(`@${reporter.username}`);
  // The reporter signed up a moment ago: marked as a new account (issue 26).
  await expect(postItem).toContainText(COPY.moderation.newAccount);
  await postItem.getByRole('button', { name: COPY.moderation.removePost }).click();
  const remove = mod.getByRole('dialog', { name: COPY.moderation.removeTitle });
  await remove.getByLabel(COPY.moderation.note).fill('Advertising');
  await remove.getByRole('button', { name: COPY.moderation.removePost }).click();
  await expect(postItem).toHaveCount(0);

  const profileItem = mod
    .getByRole('listitem')
    .filter({ hasText: COPY.moderation.reportedProfile })
    .filter({ hasText: `@${author.username}` });
  await expect(profileItem).toContainText('Posts the same ad every hour');
  await profileItem.getByRole('button', { name: COPY.moderation.suspend }).click();
  const suspend = mod.getByRole('dialog', { name: COPY.moderation.suspendTitle(author.username) });
  await suspend.getByLabel(COPY.moderation.days(7)).check();
  await suspend.getByRole('button', { name: COPY.moderation.suspend }).click();
  await expect(profileItem).toHaveCount(0);

  await mod.getByRole('link', { name: COPY.moderation.log }).click();
  await expect(mod).toHaveURL('/moderation/log');
  const log = mod.getByRole('list', { name: COPY.moderation.log });
  await expect(log.getByRole('listitem').nth(0)).toContainText(COPY.moderation.actions['suspend-7']);
  await expect(log.getByRole('listitem').nth(0)).toContainText(`@${author.username}`);
  await expect(log.getByRole('listitem').nth(1)).toContainText(COPY.moderation.actions['remove-post']);
  await expect(log.getByRole('listitem').nth(1)).toContainText('Advertising');

  // The post is gone; the author's session ended and they cannot sign in.
  expect((await page.request.get(API.post(postId))).status()).toBe(404);
  expect((await request.get(API.me)).status()).toBe(401);
  const locked = await browser.newPage();
  await signIn(locked, author.username, author.password);
  await expect(locked.getByTestId('login-errors')).toContainText('This account is suspended until');
  await locked.close();
  await staff.close();
});

test('Report is not offered on your own post or profile, nor signed out', async ({ page }) => {
  const author = await signUpViaApi(page.request, newAccount('own'));
  const postId = await postAs(page.request, 'Mine');
  await page.goto(`/post/${postId}`);
  await expect(page.getByRole('heading', { name: 'Mine' })).toBeVisible();
  await expect(page.getByRole('button', { name: COPY.report.action })).toHaveCount(0);
  await page.goto(`/@${author.username}`);
  await expect(page.getByRole('heading', { name: `@${author.username}` })).toBeVisible();
  await expect(page.getByRole('button', { name: COPY.report.action })).toHaveCount(0);
  await page.context().clearCookies();
  await page.goto(`/post/${postId}`);
  await expect(page.getByRole('heading', { name: 'Mine' })).toBeVisible();
  await expect(page.getByRole('button', { name: COPY.report.action })).toHaveCount(0);
});

test('a post and a profile hidden by a block are still reported, by link and by name, showing nothing of them', async ({
  page,
  request,
}) => {
  const harasser = await signUpViaApi(request, newAccount('harass'));
  const postId = await postAs(request, 'About someone #dorm');
  const victim = await signUpViaApi(page.request, newAccount('victim'));
  // The harasser blocks the person they post about first (issue 26).
  expect((await request.put(API.block(victim.username))).status()).toBeLessThan(300);

  await page.goto(`/post/${postId}`);
  await expect(page.getByRole('heading', { name: COPY.post.missingTitle })).toBeVisible();
  await expect(page.getByText('About someone')).toHaveCount(0);
  await page.getByRole('button', { name: COPY.report.action }).click();
  const dialog = page.getByRole('dialog', { name: COPY.report.postTitle });
  await dialog.getByLabel('Harassment or bullying').check();
  await dialog.getByRole('button', { name: COPY.report.send }).click();
  const thanks = page.getByRole('dialog', { name: COPY.report.thanksTitle });
  await expect(thanks).toContainText(COPY.report.thanksMessage);
  await thanks.getByRole('button', { name: COPY.close }).click();

  await page.goto(`/@${harasser.username}`);
  await expect(page.getByRole('heading', { name: COPY.profile.missingTitle })).toBeVisible();
  await page.getByRole('button', { name: COPY.report.action }).click();
  const profileDialog = page.getByRole('dialog', { name: COPY.report.profileTitle(harasser.username) });
  await profileDialog.getByLabel('Harassment or bullying').check();
  await profileDialog.getByRole('button', { name: COPY.report.send }).click();
  await expect(page.getByRole('dialog', { name: COPY.report.thanksTitle })).toBeVisible();
});
