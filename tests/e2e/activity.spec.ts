import { expect, test, type Browser, type Page } from '@playwright/test';
import { ACTIVITY_COPY, TOPIC_COPY } from '../../src/shared/activity-copy';
import { API } from '../../src/shared/api/paths';
import { boardViaApi, newAccount, signUpViaApi } from './helpers';

/**
 * Issue 30 in the browser: the bell counts what is new, /activity shows it grouped, opening a row
 * or Mark all as read reads it, an invitation is answered in its row; Settings → Notifications
 * saves its switches and asks the browser nothing until push is turned on.
 */

/** Someone else, signed up in a browser context of their own: their API requests carry their cookie. */
async function someone(browser: Browser, prefix: string) {
  const context = await browser.newContext();
  const account = await signUpViaApi(context.request, newAccount(prefix));
  return { account, request: context.request, close: () => context.close() };
}

const unreadOf = async (page: Page) => ((await (await page.request.get('/api/activity/unread')).json()) as { unread: number }).unread;

test('the bell, /activity, reading a row, answering an invitation and Mark all as read', async ({ page, browser }) => {
  const me = await signUpViaApi(page.request, newAccount('bell'));
  const fans = [await someone(browser, 'fan'), await someone(browser, 'fan')];
  for (const fan of fans) expect((await fan.request.put(API.follow(me.username))).ok()).toBe(true);
  const owner = fans[0]!;
  const boardName = `Quiet corners ${Date.now()}`;
  const board = await boardViaApi(owner.request, boardName);
  expect((await owner.request.put(API.boardMember(board.id, me.username))).ok()).toBe(true);

  await page.goto('/');
  const unread = await unreadOf(page);
  expect(unread).toBeGreaterThan(0);
  const bell = page.getByRole('link', { name: ACTIVITY_COPY.bell(unread) });
  await bell.click();
  await expect(page).toHaveURL('/activity');
  await expect(page.getByRole('heading', { level: 1, name: ACTIVITY_COPY.title })).toBeVisible();

  const rows = page.getByRole('list', { name: ACTIVITY_COPY.title }).getByRole('listitem');
  const follows = rows.filter({ hasText: `${fans[1]!.account.username} and ${fans[0]!.account.username} followed you` });
  await expect(follows.getByText(ACTIVITY_COPY.unread)).toHaveCount(1);
  const invite = rows.filter({ hasText: `invited you to ${boardName}` });
  await invite.getByRole('button', { name: ACTIVITY_COPY.join }).click();
  await expect(invite.getByText(ACTIVITY_COPY.joined)).toBeVisible();
  await expect(invite.getByRole('button')).toHaveCount(0);

  // Opening a row reads its group, on the server too.
  await follows.getByRole('link').click();
  await expect(page).toHaveURL(`/@${me.username}/followers`);
  await expect.poll(() => unreadOf(page)).toBe(0);
  await page.goto('/activity');
  await expect(rows.first()).toBeVisible();
  await expect(page.getByText(ACTIVITY_COPY.unread)).toHaveCount(0);
  await expect(page.getByRole('button', { name: ACTIVITY_COPY.markAllRead })).toBeDisabled();

  // Something new: the bell says so again, and Mark all as read reads it.
  const third = await someone(browser, 'fan');
  expect((await third.request.put(API.follow(me.username))).ok()).toBe(true);
  await page.goto('/');
  await expect(page.getByRole('link', { name: ACTIVITY_COPY.bell(1) })).toBeVisible();
  await page.goto('/activity');
  await page.getByRole('button', { name: ACTIVITY_COPY.markAllRead }).click();
  await expect(page.getByText(ACTIVITY_COPY.unread)).toHaveCount(0);
  await page.goto('/');
  await expect(page.getByRole('link', { name: ACTIVITY_COPY.bell(0) })).toBeVisible();
  for (const person of [...fans, third]) await person.close();
});

test('Settings → Notifications saves a switch, and asks for permission only when push is turned on', async ({ page }) => {
  await signUpViaApi(page.request, newAccount('switch'));
  await page.addInitScript(() => {
    const asked = { count: 0 };
    Object.assign(window, { asked });
    const original = Notification.requestPermission.bind(Notification);
    Notification.requestPermission = () => {
      asked.count += 1;
      return original();
    };
  });
  await page.goto('/settings');
  await page.getByRole('link', { name: ACTIVITY_COPY.settings }).click();
  await expect(page).toHaveURL('/settings/notifications');
  const follows = page.getByRole('group', { name: TOPIC_COPY.follows.label });
  await expect(follows.getByRole('checkbox', { name: ACTIVITY_COPY.inApp })).toBeChecked();
  // No device has push yet: the Push switches wait for one.
  await expect(follows.getByRole('checkbox', { name: ACTIVITY_COPY.push })).toBeDisabled();
  // A click, then the state awaited: the switch turns once the mutation's onMutate has run (a
  // tick later), which uncheck() would check at once and, on a busy machine, find unchanged.
  await follows.getByRole('checkbox', { name: ACTIVITY_COPY.inApp }).click();
  await expect(follows.getByRole('checkbox', { name: ACTIVITY_COPY.inApp })).not.toBeChecked();
  await expect(page.getByText(ACTIVITY_COPY.saved, { exact: true })).toBeVisible();
  await page.reload();
  await expect(follows.getByRole('checkbox', { name: ACTIVITY_COPY.inApp })).not.toBeChecked();

  expect(await page.evaluate(() => (window as unknown as { asked: { count: number } }).asked.count)).toBe(0);
  await page.getByRole('button', { name: ACTIVITY_COPY.turnOnPush }).click();
  await expect.poll(() => page.evaluate(() => (window as unknown as { asked: { count: number } }).asked.count)).toBe(1);
});
