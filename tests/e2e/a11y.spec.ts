import AxeBuilder from '@axe-core/playwright';
import { expect, test, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import { ACTIVITY_COPY, TOPIC_COPY } from '../../src/shared/activity-copy';
import { API } from '../../src/shared/api/paths';
import { BOARD_COPY } from '../../src/shared/boards-copy';
import * as COPY from '../../src/shared/copy';
import { ERRORS } from '../../src/shared/errors';
import { adminResetLink, adminRole, adminVerify } from './admin';
import { boardViaApi, holdRequests, newAccount, saveViaApi, signUpViaApi, WALK_TIMEOUT } from './helpers';
import { photo } from './images';
import { invitePortFor, runAdmin } from './registration';
import { MAIL_URL, mailTo, OIDC } from './mail';

/**
 * Accessibility on every screen, at both sizes: axe-core finds no serious or critical violation
 * (contrast, names, labels, landmarks, ARIA), each screen has exactly one h1, and the dialogs
 * focus their least destructive action and hand focus back when they close.
 */

/** A word only this spec's posts and accounts hold, so a search finds people and posts. */
const WORD = 'a11y';

async function post(request: APIRequestContext, description: string): Promise<string> {
  const response = await request.post(API.posts, { multipart: { photo: await photo(description.slice(0, 12)), description, link: '' } });
  expect(response.status(), await response.text()).toBe(201);
  return ((await response.json()) as { post: { id: string } }).post.id;
}

/** The serious and critical violations on the page as it is now, one line per rule and target. */
async function violations(page: Page, screen: string): Promise<string[]> {
  // target-size (WCAG 2.2, 24 px) is off in axe by default; Lighthouse checks it, and so do we.
  const results = await new AxeBuilder({ page }).options({ rules: { 'target-size': { enabled: true } } }).analyze();
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .flatMap((violation) => violation.nodes.map((node) => `${screen}: ${violation.id} (${violation.impact}) at ${node.target.join(' ')}`));
}

/**
 * Opens a screen, waits for its content (`ready`) and for every loading placeholder to go, then
 * audits it. Findings are collected rather than thrown, so one run reports every screen.
 */
async function audit(page: Page, found: string[], screen: string, ready: (page: Page) => Locator, path?: string) {
  if (path) await page.goto(path);
  await expect(ready(page)).toBeVisible();
  await expect(page.locator('[role="status"]')).toHaveCount(0);
  if (!(await page.getByRole('dialog').isVisible())) {
    const h1 = await page.locator('h1').count();
    if (h1 !== 1) found.push(`${screen}: ${h1} h1 elements (want exactly 1)`);
  }
  found.push(...(await violations(page, screen)));
}

test('signed out: login (both modes), a profile, a post, search and not-found', async ({ page, request }) => {
  test.setTimeout(WALK_TIMEOUT);
  const author = await signUpViaApi(request, newAccount(WORD));
  const postId = await post(request, `${WORD} morning light on the quad #campus`);
  const found: string[] = [];

  await audit(page, found, 'login (sign in)', (p) => p.getByRole('button', { name: 'Enter' }), '/login');
  await page.getByRole('button', { name: 'New Account' }).click();
  await audit(page, found, 'login (create account)', (p) => p.getByRole('button', { name: 'Create' }));
  await audit(page, found, 'profile', (p) => p.getByRole('heading', { name: `@${author.username}` }), `/@${author.username}`);
  await audit(page, found, 'post', (p) => p.getByRole('heading', { name: 'Discover' }), `/post/${postId}`);
  await audit(page, found, 'search', (p) => p.getByRole('heading', { name: 'People' }), `/search/${WORD}`);
  await audit(page, found, 'not found', (p) => p.getByText('Not found :('), '/404');

  expect(found).toEqual([]);
});

test('signed in: home, Your University, upload, settings, profiles, lists, search', async ({ page, request }) => {
  test.setTimeout(WALK_TIMEOUT);
  const other = await signUpViaApi(request, newAccount(WORD));
  await post(request, `${WORD} late night ramen run #food`);
  await post(request, `${WORD} library corner with a view #study`);
  const me = await signUpViaApi(page.request, newAccount(WORD));
  await post(page.request, `${WORD} my desk setup #dorm`);
  expect((await page.request.put(API.follow(other.username))).ok()).toBe(true);
  const found: string[] = [];

  await audit(page, found, 'home', (p) => p.getByRole('tabpanel').getByRole('link').first(), '/');
  await page.getByRole('tab', { name: 'Your University' }).click();
  await audit(page, found, 'your university', (p) => p.getByText('Still working on it!'));
  await audit(page, found, 'upload', (p) => p.getByRole('button', { name: 'Post' }), '/upload');
  await audit(page, found, 'settings', (p) => p.getByRole('link', { name: 'Account Settings' }), '/settings');
  await audit(page, found, 'account settings', (p) => p.getByRole('button', { name: 'Update' }), '/settings/account');
  await audit(page, found, 'own profile', (p) => p.getByRole('link', { name: 'Settings' }), `/@${me.username}`);
  await audit(page, found, 'other profile', (p) => p.getByRole('button', { name: 'Unfollow' }), `/@${other.username}`);
  await audit(
    page,
    found,
    'followers',
    (p) => p.getByRole('main').getByRole('link', { name: new RegExp(`@${me.username}`) }),
    `/@${other.username}/followers`,
  );
  // Nobody followed by `other`: the empty list offers a way back to the profile.
  await audit(page, found, 'following (empty)', (p) => p.getByText('Nobody here yet.'), `/@${other.username}/following`);
  await expect(page.getByRole('main').getByRole('link', { name: `Back to @${other.username}` })).toBeVisible();
  await audit(page, found, 'search results', (p) => p.getByRole('heading', { name: 'People' }), `/search/${WORD}`);
  // People whose names start with the word: every run of this spec adds some, and only the first
  // ten (in name order) are listed, so which of them is not known.
  await expect(
    page
      .getByRole('main')
      .getByRole('link', { name: new RegExp(`@${WORD}_`) })
      .first(),
  ).toBeVisible();
  await audit(page, found, 'search (nothing found)', (p) => p.getByText(/No posts found/), '/search/zqxjvwkpq');
  await expect(page.getByRole('main').getByRole('link', { name: 'Explore the feed' })).toBeVisible();

  expect(found).toEqual([]);
});

test('signed in: Activity (with an invitation to answer) and Settings → Notifications (issue 30)', async ({ page, browser }) => {
  const me = await signUpViaApi(page.request, newAccount(WORD));
  const friend = await browser.newContext();
  await signUpViaApi(friend.request, newAccount(WORD));
  expect((await friend.request.put(API.follow(me.username))).ok()).toBe(true);
  const board = await boardViaApi(friend.request, `${WORD} study spots`);
  expect((await friend.request.put(API.boardMember(board.id, me.username))).ok()).toBe(true);
  const found: string[] = [];

  await audit(page, found, 'activity', (p) => p.getByRole('button', { name: ACTIVITY_COPY.join }), '/activity');
  await audit(
    page,
    found,
    'notification settings',
    (p) => p.getByRole('group', { name: TOPIC_COPY.follows.label }),
    '/settings/notifications',
  );

  await friend.close();
  expect(found).toEqual([]);
});

test('signed in: Settings → Security (change password, sessions)', async ({ page, browser }) => {
  const me = await signUpViaApi(page.request, newAccount(WORD));
  // A second signed-in browser, so the Sessions list has a row that is not this device.
  const elsewhere = await browser.newContext();
  expect((await elsewhere.request.post(API.login, { data: { identifier: me.username, password: me.password } })).ok()).toBe(true);
  const found: string[] = [];

  await audit(page, found, 'change password', (p) => p.getByRole('button', { name: 'Change Password' }), '/settings/password');
  await page.getByRole('button', { name: 'Change Password' }).click();
  await expect(page.getByTestId('password-errors')).toHaveText('Fill in all the fields.');
  found.push(...(await violations(page, 'change password (errors)')));
  await audit(page, found, 'sessions', (p) => p.getByText('This device'), '/settings/sessions');
  await expect(page.getByRole('list', { name: 'Sessions' }).getByRole('listitem')).toHaveCount(2);

  await elsewhere.close();
  expect(found).toEqual([]);
});

test('signed in: Settings → Security → Delete Account (page, its errors, the confirmation)', async ({ page }) => {
  await signUpViaApi(page.request, newAccount(WORD));
  const found: string[] = [];

  await audit(page, found, 'delete account', (p) => p.getByRole('button', { name: 'Delete Account' }), '/settings/delete');
  await page.getByRole('button', { name: 'Delete Account' }).click();
  await expect(page.getByTestId('delete-errors')).toHaveText('Fill in all the fields.');
  found.push(...(await violations(page, 'delete account (errors)')));
  await page.getByLabel('Password').fill('typed but never sent');
  await page.getByRole('button', { name: 'Delete Account' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await audit(page, found, 'delete account (confirmation)', (p) => p.getByRole('dialog'));
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toHaveCount(0);

  expect(found).toEqual([]);
});

test('the delete dialog focuses Cancel, passes axe, and Escape hands focus back to Delete', async ({ page }) => {
  await signUpViaApi(page.request, newAccount(WORD));
  const postId = await post(page.request, `${WORD} sunset from the roof #views`);
  const found: string[] = [];
  await page.goto(`/post/${postId}`);
  const remove = page.getByRole('button', { name: 'Delete' });
  await remove.click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText('Mysterious is the new cool???');
  // The least destructive action: Enter must not delete the post.
  await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await audit(page, found, 'post with delete dialog', (p) => p.getByRole('dialog'));
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  await expect(remove).toBeFocused();
  // Enter on the re-opened dialog cancels rather than deletes.
  await page.keyboard.press('Enter');
  await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(dialog).toHaveCount(0);
  await expect(page).toHaveURL(`/post/${postId}`);
  expect(found).toEqual([]);
});

test('the sign-in prompt focuses Close, passes axe, and Escape hands focus back', async ({ page, request }) => {
  const author = await signUpViaApi(request, newAccount(WORD));
  const found: string[] = [];
  await page.goto(`/@${author.username}`);
  const follow = page.getByRole('button', { name: 'Follow', exact: true });
  await follow.click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText('Not signed in!');
  await expect(dialog.getByRole('button', { name: 'Close' })).toBeFocused();
  await audit(page, found, 'sign-in prompt', (p) => p.getByRole('dialog'));
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  await expect(follow).toBeFocused();
  expect(found).toEqual([]);
});

test('loading: one polite status over a profile-shaped skeleton, still under reduced motion', async ({ page, request }) => {
  const author = await signUpViaApi(request, newAccount(WORD));
  await page.emulateMedia({ reducedMotion: 'reduce' });
  const release = await holdRequests(page, `**${API.user(author.username)}`);
  await page.goto(`/@${author.username}`);
  const status = page.getByRole('status');
  await expect(status).toHaveCount(1);
  await expect(status).toHaveAttribute('aria-live', 'polite');
  // The spec's loading line for someone else's profile, over placeholders shaped like the page.
  await expect(status).toContainText('Loading profile!');
  const blocks = status.locator('[aria-hidden="true"] div');
  expect(await blocks.count()).toBeGreaterThan(4);
  await expect(blocks.first()).toHaveCSS('animation-name', 'none');
  expect(await violations(page, 'profile loading')).toEqual([]);
  release();
  await expect(page.getByRole('heading', { name: `@${author.username}` })).toBeVisible();
  await page.unrouteAll({ behavior: 'wait' });
});

test('empty states offer a next step: home and your own board to Upload, someone else’s to the feed', async ({ page, request }) => {
  const other = await signUpViaApi(request, newAccount(WORD));
  const me = await signUpViaApi(page.request, newAccount(WORD));
  // An empty board, whatever else this shared server holds.
  await page.route(`**${API.posts}`, (route) => route.fulfill({ json: { posts: [], nextCursor: null } }));
  const found: string[] = [];
  // A page load of / carries the feed's first page; coming to Home from another screen asks for it.
  await page.goto('/upload');
  await page.getByRole('link', { name: 'Home' }).click();
  await audit(page, found, 'home (empty)', (p) => p.getByText('Be the first to post!'));
  await page.getByRole('main').getByRole('link', { name: 'Upload' }).click();
  await expect(page).toHaveURL('/upload');

  await audit(page, found, 'own profile (empty)', (p) => p.getByText('No posts yet.'), `/@${me.username}`);
  await expect(page.getByRole('main').getByRole('link', { name: 'Upload' })).toHaveAttribute('href', '/upload');
  await audit(page, found, 'other profile (empty)', (p) => p.getByText('No posts yet.'), `/@${other.username}`);
  await page.getByRole('main').getByRole('link', { name: 'Explore the feed' }).click();
  await expect(page).toHaveURL('/');
  expect(found).toEqual([]);
});

test('signed in: Settings → Security → Download My Data (page, a refused download)', async ({ page }) => {
  await signUpViaApi(page.request, newAccount(WORD));
  const found: string[] = [];

  await audit(page, found, 'download my data', (p) => p.getByRole('link', { name: 'Download My Data' }), '/settings/data');
  await audit(page, found, 'download my data (refused)', (p) => p.getByTestId('download-errors'), '/settings/data?error=EXPORT_BUSY');
  await expect(page.getByTestId('download-errors')).toHaveText(ERRORS.EXPORT_BUSY);

  expect(found).toEqual([]);
});

test('who may sign up: the invite-mode create-account form, and an admin’s Invites (a new code, the revoke dialog)', async ({
  page,
  baseURL,
}) => {
  test.setTimeout(WALK_TIMEOUT);
  const port = Number(new URL(baseURL!).port);
  const found: string[] = [];

  await page.goto(`http://127.0.0.1:${invitePortFor(port)}/login`);
  await page.getByRole('button', { name: COPY.login.newAccount }).click();
  await audit(page, found, 'login (create account, invite mode)', (p) => p.getByPlaceholder(COPY.login.inviteCodePlaceholder));
  await page.getByRole('button', { name: COPY.login.create }).click();
  await audit(page, found, 'login (create account, invite mode, errors)', (p) => p.getByTestId('login-errors').filter({ hasText: /./ }));

  const admin = await signUpViaApi(page.request, newAccount(WORD));
  await runAdmin(port, ['role', admin.username, 'admin']);
  await audit(page, found, 'invites', (p) => p.getByRole('button', { name: COPY.invites.create }), '/moderation/invites');
  await page.getByRole('button', { name: COPY.invites.create }).click();
  await audit(page, found, 'invites (a new code)', (p) => p.getByTestId('new-invite-code'));
  await page.getByRole('list', { name: COPY.invites.live }).getByRole('button').first().click();
  await audit(page, found, 'invites (revoke dialog)', (p) => p.getByRole('dialog'));
  // The dialog focuses Cancel, not Revoke.
  await expect(page.getByRole('dialog').getByRole('button', { name: COPY.cancel })).toBeFocused();

  expect(found).toEqual([]);
});

test('blocks: the Block dialog, a profile you blocked, Blocked Accounts (a row, and empty)', async ({ page, request }) => {
  const other = await signUpViaApi(request, newAccount(WORD));
  await signUpViaApi(page.request, newAccount(WORD));
  const found: string[] = [];

  await audit(page, found, 'blocked accounts (empty)', (p) => p.getByText(COPY.block.none), '/settings/blocked');
  await page.goto(`/@${other.username}`);
  await page.getByRole('button', { name: COPY.block.action, exact: true }).click();
  await audit(page, found, 'block dialog', (p) => p.getByRole('dialog'));
  await expect(page.getByRole('dialog').getByRole('button', { name: COPY.cancel })).toBeFocused();
  await page.getByRole('dialog').getByRole('button', { name: COPY.block.confirm, exact: true }).click();
  await audit(page, found, 'profile you blocked', (p) => p.getByRole('button', { name: COPY.block.unblock }));
  await audit(page, found, 'blocked accounts', (p) => p.getByRole('list', { name: COPY.block.listTitle }), '/settings/blocked');

  expect(found).toEqual([]);
});

test('moderation: the Report dialog (and its error), the queue, the Suspend dialog, the log and People', async ({
  page,
  request,
  browser,
}) => {
  test.setTimeout(WALK_TIMEOUT);
  const author = await signUpViaApi(request, newAccount(WORD));
  const postId = await post(request, `${WORD} reported post #campus`);
  const found: string[] = [];

  await signUpViaApi(page.request, newAccount(WORD));
  await page.goto(`/post/${postId}`);
  await page.getByRole('button', { name: COPY.report.action }).click();
  const dialog = page.getByRole('dialog', { name: COPY.report.postTitle });
  await audit(page, found, 'report dialog', () => dialog);
  await dialog.getByLabel('Something else').check();
  await dialog.getByRole('button', { name: COPY.report.send }).click();
  await expect(dialog.getByRole('alert')).toHaveText(ERRORS.REPORT_DETAILS_REQUIRED);
  await audit(page, found, 'report dialog (details required)', () => dialog);
  await dialog.getByLabel(COPY.report.details).fill('Not a photo of campus');
  await dialog.getByRole('button', { name: COPY.report.send }).click();
  await audit(page, found, 'report thanks', (p) => p.getByRole('dialog', { name: COPY.report.thanksTitle }));

  const staff = await browser.newContext({ viewport: page.viewportSize() ?? undefined });
  const mod = await staff.newPage();
  const moderator = await signUpViaApi(mod.request, newAccount(WORD));
  await mod.goto('/');
  await adminRole(mod, moderator.username, 'moderator');
  // The e2e server is shared: other specs' reports may be in the queue too.
  const suspendAuthor = mod
    .getByRole('listitem')
    .filter({ hasText: `@${author.username}` })
    .getByRole('button', { name: COPY.moderation.suspend });
  await audit(mod, found, 'moderation queue', () => suspendAuthor, '/moderation');
  await suspendAuthor.click();
  await audit(mod, found, 'suspend dialog', (p) => p.getByRole('dialog', { name: COPY.moderation.suspendTitle(author.username) }));
  await mod.keyboard.press('Escape');
  await expect(suspendAuthor).toBeFocused();
  await audit(
    mod,
    found,
    'moderation log',
    (p) => p.getByText(COPY.moderation.logEmpty).or(p.getByRole('list', { name: COPY.moderation.log })),
    '/moderation/log',
  );
  await mod.goto('/moderation/people');
  await mod.getByLabel(COPY.moderation.findPerson).fill(author.username);
  await mod.getByRole('button', { name: COPY.moderation.find }).click();
  await audit(mod, found, 'moderation people', (p) => p.getByRole('link', { name: `@${author.username}` }));
  await staff.close();
  expect(found).toEqual([]);
});

test('boards: the Boards tab (yours, someone else’s empty one), a board page and Organize, Invite, Edit, the Save picker', async ({
  page,
  request,
}) => {
  test.setTimeout(WALK_TIMEOUT);
  const other = await signUpViaApi(request, newAccount(WORD));
  const description = `${WORD} board-worthy desk #dorm`;
  const postId = await post(request, description);
  const me = await signUpViaApi(page.request, newAccount(WORD));
  const name = `${WORD} room ideas`;
  const board = await boardViaApi(page.request, name, true);
  await saveViaApi(page.request, board.id, postId);
  expect((await page.request.put(API.boardMember(board.id, other.username))).ok()).toBe(true);
  const found: string[] = [];

  await audit(page, found, 'boards tab', (p) => p.getByRole('link', { name: new RegExp(name) }), `/@${me.username}/boards`);
  await audit(page, found, 'boards tab (empty)', (p) => p.getByText(BOARD_COPY.noneOther), `/@${other.username}/boards`);
  await audit(page, found, 'board page (owner)', (p) => p.getByAltText(description), `/@${me.username}/boards/${board.slug}`);
  await page.getByRole('button', { name: BOARD_COPY.organize }).click();
  await audit(page, found, 'board page (organize)', (p) => p.getByRole('button', { name: BOARD_COPY.removeLabel(description) }));
  const invite = page.getByRole('button', { name: BOARD_COPY.invite, exact: true });
  await invite.click();
  await audit(page, found, 'invite dialog', (p) => p.getByRole('dialog', { name: BOARD_COPY.inviteTitle }).getByRole('listitem'));
  await page.keyboard.press('Escape');
  await expect(invite).toBeFocused();
  await page.getByRole('button', { name: BOARD_COPY.edit, exact: true }).click();
  await audit(page, found, 'edit board dialog', (p) => p.getByRole('dialog', { name: BOARD_COPY.editTitle }));
  await page.keyboard.press('Escape');

  await page.goto(`/post/${postId}`);
  await page.getByRole('button', { name: COPY.boards.saved(name) }).click();
  const picker = page.getByRole('dialog', { name: BOARD_COPY.pickerTitle });
  await audit(page, found, 'save picker', () => picker.getByRole('button', { name: new RegExp(name) }));
  await picker.getByRole('button', { name: BOARD_COPY.newBoard }).click();
  await audit(page, found, 'save picker (new board)', () => picker.getByRole('switch', { name: BOARD_COPY.secret }));

  expect(found).toEqual([]);
});

test.describe('on a server with mail', () => {
  test.use({ baseURL: MAIL_URL });

  test('signed out: password recovery (a reset link, a dead one, Forgot password?, the sent dialog)', async ({ page, request }) => {
    test.setTimeout(WALK_TIMEOUT);
    const account = await signUpViaApi(request, newAccount(WORD));
    // On the mail server first, so the command line finds it (admin.ts serverPort).
    await page.goto('/login');
    const link = await adminResetLink(page, account.username);
    const found: string[] = [];

    await audit(page, found, 'reset link', (p) => p.getByRole('button', { name: COPY.reset.submit }), link);
    await page.getByRole('button', { name: COPY.reset.submit }).click();
    await audit(page, found, 'reset link (errors)', (p) => p.getByTestId('reset-errors'));
    await audit(page, found, 'reset link (dead)', (p) => p.getByRole('alert'), `/reset/${'x'.repeat(43)}`);
    await audit(page, found, 'forgot password', (p) => p.getByRole('button', { name: COPY.forgot.submit }), '/forgot-password');
    await page.getByPlaceholder(COPY.login.identifierPlaceholder).fill(account.username);
    await page.getByRole('button', { name: COPY.forgot.submit }).click();
    await audit(page, found, 'forgot password (sent)', (p) => p.getByRole('dialog'));
    // The dialog focuses its one button, and Escape hands focus back to the form.
    await expect(page.getByRole('dialog').getByRole('button', { name: COPY.forgot.toSignIn })).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(page.getByRole('dialog')).toHaveCount(0);
    await expect(page.getByRole('button', { name: COPY.forgot.submit })).toBeFocused();

    expect(found).toEqual([]);
  });

  test('verified addresses: the Upload notice, the Follow and Save prompts, a link (good and dead), E-mail Address, People', async ({
    page,
    request,
    browser,
  }) => {
    test.setTimeout(WALK_TIMEOUT);
    const friend = await signUpViaApi(request, newAccount(WORD));
    // The friend verified (by the command line, for real), so they can post.
    await page.goto('/login');
    await adminVerify(page, friend.username);
    const postId = await post(request, `${WORD} post to save #campus`);
    const account = await signUpViaApi(page.request, newAccount(WORD));
    const found: string[] = [];

    await audit(page, found, 'upload (verify first)', (p) => p.getByText(COPY.verify.checkInbox(account.email)), '/upload');
    await page.goto(`/@${friend.username}`);
    const followButton = page.getByRole('button', { name: COPY.follow.follow, exact: true });
    await followButton.click();
    await audit(page, found, 'follow (verify first)', (p) => p.getByRole('dialog', { name: COPY.verify.dialogTitle }));
    await expect(page.getByRole('dialog').getByRole('button', { name: COPY.close })).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(followButton).toBeFocused();
    await page.goto(`/post/${postId}`);
    await page.getByRole('button', { name: COPY.boards.save, exact: true }).click();
    await audit(page, found, 'save (verify first)', (p) => p.getByRole('dialog', { name: COPY.verify.dialogTitle }));
    await page.keyboard.press('Escape');
    await audit(page, found, 'e-mail address (unverified)', (p) => p.getByLabel(COPY.emailSettings.newEmail), '/settings/email');

    const link = /http:\/\/127\.0\.0\.1:\d+(\/verify\/[\w-]{43})/.exec((await mailTo(account.email)).text)?.[1];
    await audit(page, found, 'verify link', (p) => p.getByRole('heading', { name: COPY.verify.verifiedTitle }), link);
    await audit(page, found, 'e-mail address (verified)', (p) => p.getByLabel(COPY.emailSettings.newEmail), '/settings/email');
    await page.getByLabel(COPY.emailSettings.newEmail).fill(newAccount(WORD).email);
    await page.getByLabel(COPY.emailSettings.currentPassword).fill(account.password);
    await page.getByRole('button', { name: COPY.emailSettings.submit }).click();
    await audit(page, found, 'e-mail address (changed)', (p) => p.getByRole('dialog', { name: COPY.emailSettings.changedTitle }));
    await page.keyboard.press('Escape');
    await audit(page, found, 'e-mail address (pending)', (p) => p.getByRole('button', { name: COPY.emailSettings.cancelPending }));

    await audit(page, found, 'verify link (dead)', (p) => p.getByRole('alert'), `/verify/${'x'.repeat(43)}`);

    // An admin finds the unverified account on People, with its action.
    const staff = await browser.newContext({ viewport: page.viewportSize() ?? undefined, baseURL: MAIL_URL });
    const admin = await staff.newPage();
    const adminAccount = await signUpViaApi(admin.request, newAccount(WORD));
    await admin.goto('/');
    await adminRole(admin, adminAccount.username, 'admin');
    await admin.goto('/moderation/people');
    const stranger = await signUpViaApi(request, newAccount(WORD));
    await admin.getByLabel(COPY.moderation.findPerson).fill(stranger.username);
    await admin.getByRole('button', { name: COPY.moderation.find }).click();
    await audit(admin, found, 'moderation people (unverified)', (p) => p.getByRole('button', { name: COPY.moderation.verifyEmail }));
    await admin.getByRole('button', { name: COPY.moderation.verifyEmail }).click();
    await expect(admin.getByText(COPY.moderation.emailVerifiedSaved)).toBeVisible();
    await staff.close();
    expect(found).toEqual([]);
  });

  test('single sign-on: the sign-in screen with its button, the username page (and its error), Settings → Uni Login', async ({ page }) => {
    test.setTimeout(WALK_TIMEOUT);
    const found: string[] = [];
    await audit(
      page,
      found,
      'sign in (with single sign-on)',
      (p) => p.getByRole('link', { name: COPY.sso.continueWith(OIDC.name) }),
      '/login',
    );
    await page.getByRole('link', { name: COPY.sso.continueWith(OIDC.name) }).click();
    const sub = `student-${WORD}${Date.now().toString(36)}`;
    await page.getByLabel('Account').fill(sub);
    await page.getByRole('button', { name: 'Continue' }).click();
    await audit(page, found, 'sso username', (p) => p.getByRole('button', { name: COPY.sso.create }));
    await page.getByRole('textbox', { name: COPY.login.usernamePlaceholder }).fill('x');
    await page.getByRole('button', { name: COPY.sso.create }).click();
    await audit(page, found, 'sso username (errors)', (p) => p.getByTestId('sso-errors').getByText(ERRORS.USERNAME_LENGTH));
    await page.getByRole('textbox', { name: COPY.login.usernamePlaceholder }).fill(sub.replace(/-/g, '_').slice(0, 20));
    await page.getByRole('button', { name: COPY.sso.create }).click();
    await expect(page).toHaveURL('/');
    await audit(page, found, 'settings (single sign-on row)', (p) => p.getByRole('link', { name: OIDC.name }), '/settings');
    await audit(page, found, 'settings → single sign-on', (p) => p.getByText(COPY.sso.connected(OIDC.name)), '/settings/sso');
    await audit(page, found, 'e-mail address (single sign-on only)', (p) => p.getByLabel(COPY.emailSettings.newEmail), '/settings/email');
    expect(found).toEqual([]);
  });

  test("a held name's claim link: its page, live and used up", async ({ page, request }) => {
    test.setTimeout(WALK_TIMEOUT);
    const found: string[] = [];
    const gone = await signUpViaApi(request, newAccount(WORD));
    expect((await request.delete(API.me, { data: { password: gone.password } })).status()).toBe(204);
    const again = await request.post(API.register, { data: { ...gone, password: 'coming back 3' } });
    expect(again.status()).toBe(409);
    const claimLink = /http:\/\/127\.0\.0\.1:\d+(\/claim\/[\w-]{43})/;
    const link = claimLink.exec((await mailTo(gone.email, claimLink)).text)?.[1];
    await audit(page, found, 'claim link', (p) => p.getByRole('button', { name: COPY.claim.submit }), link);
    await page.getByRole('button', { name: COPY.claim.submit }).click();
    await expect(page).toHaveURL('/');
    await audit(page, found, 'claim link (used)', (p) => p.getByRole('alert'), link);
    expect(found).toEqual([]);
  });
});
