import { expect, test, type Page } from '@playwright/test';
import { API } from '../../src/shared/api/paths';
import * as COPY from '../../src/shared/copy';
import { ERRORS } from '../../src/shared/errors';
import { newAccount, postViaApi, signIn, signUp, signUpViaApi, WALK_TIMEOUT } from './helpers';
import { MAIL_URL, mailTo } from './mail';
import type { ReceivedMail } from '../helpers/smtp';

/**
 * Verified addresses in the browser (issue 29), on the server with mail: a new account cannot
 * post, follow, save, report or invite until it proves its address, by the mailed link (opened
 * anywhere) or the mail's 6-digit code (typed on the signed-in device), with Resend and Change
 * address at hand. The mail crosses a real SMTP server (global-setup.ts).
 */
test.use({ baseURL: MAIL_URL });

const linkIn = (mail: ReceivedMail) => /http:\/\/127\.0\.0\.1:\d+(\/verify\/[\w-]{43})/.exec(mail.text)?.[1];
const codeIn = (mail: ReceivedMail) => /code in the app: (\d{3}) (\d{3})/.exec(mail.text)?.slice(1).join('');

/** The newest verification mail to `email` that is not `before` (a resend's). */
async function newMail(email: string, before?: ReceivedMail): Promise<ReceivedMail> {
  await expect.poll(async () => (await mailTo(email)).text !== before?.text, { timeout: 30_000 }).toBe(true);
  return mailTo(email);
}

async function expectNotice(page: Page, email: string) {
  await expect(page.getByText(COPY.verify.checkInbox(email))).toBeVisible();
  await expect(page.getByRole('button', { name: COPY.verify.resend })).toBeVisible();
  await expect(page.getByRole('link', { name: COPY.verify.changeAddress })).toBeVisible();
}

test('a new account: Upload and Follow say to check the inbox; a wrong code, Resend, then the code lets it post', async ({
  page,
  request,
}) => {
  test.setTimeout(WALK_TIMEOUT);
  const friend = await signUpViaApi(request, newAccount('friend'));
  const account = await signUp(page, newAccount('verify'));
  const first = await newMail(account.email);
  expect(first.text).toContain(`Subject: ${COPY.verifyMail.subject('dormboard')}`);

  // Upload: the notice where the form would be.
  await page.goto('/upload');
  await expectNotice(page, account.email);
  await expect(page.getByRole('button', { name: COPY.upload.post })).toHaveCount(0);

  // Follow: the same words in a dialog, which focuses Close and gives focus back.
  await page.goto(`/@${friend.username}`);
  const followButton = page.getByRole('button', { name: COPY.follow.follow, exact: true });
  await followButton.click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText(COPY.verify.checkInbox(account.email));
  await expect(dialog.getByRole('button', { name: COPY.close })).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  await expect(followButton).toBeFocused();
  expect((await page.request.put(API.follow(friend.username))).status()).toBe(403);

  // A wrong code, then Resend: a new mail, whose code works (the first one's no longer does).
  await page.goto('/upload');
  await page.getByLabel(COPY.verify.codeLabel).fill('000000');
  await page.getByRole('button', { name: COPY.verify.submitCode }).click();
  await expect(page.getByTestId('verify-errors')).toHaveText(ERRORS.VERIFY_CODE_INVALID);
  await page.getByRole('button', { name: COPY.verify.resend }).click();
  await expect(page.getByText(COPY.verify.resent(account.email))).toBeVisible();
  const second = await newMail(account.email, first);
  expect(codeIn(second)).not.toBe(codeIn(first));
  await page.getByLabel(COPY.verify.codeLabel).fill(codeIn(first)!);
  await page.getByRole('button', { name: COPY.verify.submitCode }).click();
  await expect(page.getByTestId('verify-errors')).toHaveText(ERRORS.VERIFY_CODE_INVALID);
  // Typed as the mail prints it, with its space.
  await page.getByLabel(COPY.verify.codeLabel).fill(`${codeIn(second)!.slice(0, 3)} ${codeIn(second)!.slice(3)}`);
  await page.getByRole('button', { name: COPY.verify.submitCode }).click();

  // Verified: the form is there, and the post goes up.
  await expect(page.getByRole('button', { name: COPY.upload.post })).toBeVisible();
  expect(await postViaApi(page.request, 'verified at last #studentliving')).toBeTruthy();
  await page.goto(`/@${friend.username}`);
  await page.getByRole('button', { name: COPY.follow.follow, exact: true }).click();
  await expect(page.getByRole('button', { name: COPY.follow.unfollow })).toBeVisible();
});

test('the mailed link, opened signed out on another device, verifies; the account then posts without asking again', async ({
  page,
  browser,
  request,
}) => {
  const account = await signUpViaApi(page.request, newAccount('link'));
  const link = linkIn(await newMail(account.email));
  expect(link).toBeDefined();

  // Another browser, nobody signed in: the link alone proves the address.
  const elsewhere = await browser.newContext({ baseURL: MAIL_URL });
  const phone = await elsewhere.newPage();
  await phone.goto(link!);
  await expect(phone.getByRole('heading', { name: COPY.verify.verifiedTitle })).toBeVisible();
  await expect(phone.getByText(COPY.verify.verified(account.email))).toBeVisible();
  await phone.getByRole('link', { name: COPY.verify.toSignIn }).click();
  await expect(phone).toHaveURL('/login');
  // Used once: opened again it is dead.
  await phone.goto(link!);
  await expect(phone.getByRole('alert')).toHaveText(ERRORS.VERIFY_LINK_INVALID);
  await elsewhere.close();

  // Back on the first device: the upload form, no notice.
  await page.goto('/upload');
  await expect(page.getByRole('button', { name: COPY.upload.post })).toBeVisible();
  await expect(page.getByText(COPY.verify.checkInbox(account.email))).toHaveCount(0);
  expect(request).toBeDefined();
});

test('Change address: the new one waits for its link while the old one still signs in; then it is the address', async ({ page }) => {
  test.setTimeout(WALK_TIMEOUT);
  const account = await signUpViaApi(page.request, newAccount('move'));
  const verifyOld = linkIn(await newMail(account.email));
  await page.goto(verifyOld!);
  await expect(page.getByRole('heading', { name: COPY.verify.verifiedTitle })).toBeVisible();

  await page.goto('/settings');
  await page.getByRole('link', { name: COPY.settings.emailAddress }).click();
  await expect(page).toHaveURL('/settings/email');
  await expect(page.getByText(account.email)).toBeVisible();
  const moved = newAccount('moved').email;
  await page.getByLabel(COPY.emailSettings.newEmail).fill(moved);
  await page.getByRole('button', { name: COPY.emailSettings.submit }).click();
  await expect(page.getByTestId('email-errors')).toHaveText(ERRORS.FILL_IN_ALL_FIELDS);
  await page.getByLabel(COPY.emailSettings.currentPassword).fill('wrong password 1');
  await page.getByRole('button', { name: COPY.emailSettings.submit }).click();
  await expect(page.getByTestId('email-errors')).toHaveText(ERRORS.INCORRECT_PASSWORD);
  await page.getByLabel(COPY.emailSettings.newEmail).fill(moved);
  await page.getByLabel(COPY.emailSettings.currentPassword).fill(account.password);
  await page.getByRole('button', { name: COPY.emailSettings.submit }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText(COPY.emailSettings.changed(moved));
  await dialog.getByRole('button', { name: COPY.close }).click();
  await expect(page.getByText(COPY.emailSettings.pending(moved))).toBeVisible();

  // Until then the old address is the account's: it signs in by it, not by the new one.
  await page.context().clearCookies();
  await signIn(page, moved, account.password);
  await expect(page.getByTestId('login-errors')).toHaveText(ERRORS.INCORRECT_LOGIN);
  await signIn(page, account.email, account.password);
  await expect(page).toHaveURL('/');

  await page.goto(linkIn(await newMail(moved))!);
  await expect(page.getByText(COPY.verify.verified(moved))).toBeVisible();
  await page.context().clearCookies();
  await signIn(page, moved, account.password);
  await expect(page).toHaveURL('/');
});

test('a deleted account’s name: taken for a sign-up with its address too, whose inbox gets a link that makes the account with it', async ({
  page,
  request,
}) => {
  test.setTimeout(WALK_TIMEOUT);
  const gone = await signUpViaApi(request, newAccount('gone'));
  expect((await request.delete(API.me, { data: { password: gone.password } })).status()).toBe(204);

  await page.goto('/login');
  await page.getByRole('button', { name: 'New Account' }).click();
  await page.getByPlaceholder('Username').fill(gone.username);
  await page.getByPlaceholder('Email').fill(gone.email);
  await page.getByPlaceholder('Password').fill('coming back 3');
  await page.getByRole('button', { name: 'Create' }).click();
  // The spec's answer, as anyone asking for the name gets it.
  await expect(page.getByTestId('login-errors')).toHaveText(ERRORS.USERNAME_TAKEN);

  const claimLink = /http:\/\/127\.0\.0\.1:\d+(\/claim\/[\w-]{43})/;
  const link = claimLink.exec((await mailTo(gone.email, claimLink)).text)?.[1];
  expect(link).toBeDefined();
  await page.goto(link!);
  await expect(page.getByRole('heading', { name: COPY.claim.title })).toBeVisible();
  await expect(page.getByText(COPY.claim.intro(gone.username, gone.email))).toBeVisible();
  await page.getByRole('button', { name: COPY.claim.submit }).click();
  await expect(page).toHaveURL('/');
  const me = await (await page.request.get(API.me)).json();
  expect(me.user).toMatchObject({ username: gone.username, email: gone.email, emailVerified: true });

  // Used once: the link is dead now, and says so.
  await page.goto(link!);
  await expect(page.getByRole('alert')).toHaveText(ERRORS.CLAIM_LINK_INVALID);
});
