import { expect, test, type Page } from '@playwright/test';
import { API } from '../../src/shared/api/paths';
import * as COPY from '../../src/shared/copy';
import { ERRORS } from '../../src/shared/errors';
import { newAccount, signIn, signUpViaApi, WALK_TIMEOUT } from './helpers';
import { adminResetLink } from './admin';
import { MAIL_URL, mailTo } from './mail';

/**
 * Password recovery in the browser (issue 16): a link printed by `npm run admin -- reset-link`
 * (the real command line, talking to the running server over loopback) and a link mailed by
 * "Forgot password?" (through a real SMTP server, see global-setup.ts). Either sets the new
 * password, ends the account's other sessions and signs this browser in.
 */

const NEW_PASSWORD = 'brand new pass 7';
async function chooseNewPassword(page: Page, username: string, password = NEW_PASSWORD) {
  await expect(page.getByText(COPY.reset.forUser(username))).toBeVisible();
  await page.getByLabel(COPY.security.newPassword, { exact: true }).fill(password);
  await page.getByLabel(COPY.security.confirmPassword).fill(password);
  await page.getByRole('button', { name: COPY.reset.submit }).click();
}

test('a reset link from npm run admin: the rules, then the new password signs this browser in and the old session ends', async ({
  page,
  request,
}) => {
  test.setTimeout(WALK_TIMEOUT);
  // Signed in elsewhere (the request context) with the password that is about to be replaced.
  const account = await signUpViaApi(request, newAccount('reset'));
  const link = await adminResetLink(page, account.username);

  await page.goto(link);
  await expect(page).toHaveTitle(new RegExp(COPY.reset.title));
  await page.getByLabel(COPY.security.newPassword, { exact: true }).fill(NEW_PASSWORD);
  await page.getByLabel(COPY.security.confirmPassword).fill('something else 1');
  await page.getByRole('button', { name: COPY.reset.submit }).click();
  await expect(page.getByTestId('reset-errors')).toHaveText(ERRORS.PASSWORDS_DO_NOT_MATCH);

  await chooseNewPassword(page, account.username);
  await expect(page).toHaveURL('/');
  expect((await (await page.request.get(API.me)).json()).user.username).toBe(account.username);
  // The other device's session ended with the reset.
  expect((await request.get(API.me)).status()).toBe(401);

  // Used once: opening it again says so, with the way back to signing in.
  await page.goto(link);
  await expect(page.getByRole('alert')).toHaveText(ERRORS.RESET_LINK_INVALID);
  await page.getByRole('link', { name: COPY.reset.toSignIn }).click();
  await expect(page).toHaveURL('/');

  // The new password is the one that signs in now.
  await page.context().clearCookies();
  await signIn(page, account.username, account.password);
  await expect(page.getByTestId('login-errors')).toHaveText(ERRORS.INCORRECT_LOGIN);
  await signIn(page, account.username, NEW_PASSWORD);
  await expect(page).toHaveURL('/');
});

test('a link that never existed: the message and a way to sign in, nothing to type', async ({ page }) => {
  await page.goto(`/reset/${'x'.repeat(43)}`);
  await expect(page.getByRole('alert')).toHaveText(ERRORS.RESET_LINK_INVALID);
  await expect(page.getByLabel(COPY.security.newPassword, { exact: true })).toHaveCount(0);
  await page.getByRole('link', { name: COPY.reset.toSignIn }).click();
  await expect(page).toHaveURL('/login');
});

test.describe('on a server with mail (issue 29: mail on means verified addresses, so the main server has none)', () => {
  test.use({ baseURL: MAIL_URL });

  test('Forgot password?: the mailed link sets the new password; an unknown name gets the same answer', async ({ page, request }) => {
    test.setTimeout(WALK_TIMEOUT);
    const account = await signUpViaApi(request, newAccount('forgot'));
    await page.goto('/login');
    await page.getByRole('link', { name: COPY.forgot.link }).click();
    await expect(page).toHaveURL('/forgot-password');
    await expect(page.getByRole('heading', { name: COPY.forgot.title })).toBeVisible();

    await page.getByRole('button', { name: COPY.forgot.submit }).click();
    await expect(page.getByTestId('forgot-errors')).toHaveText(ERRORS.FILL_IN_ALL_FIELDS);

    // Nobody by that name: the very same answer.
    await page.getByPlaceholder(COPY.login.identifierPlaceholder).fill('nobody_by_this_name');
    await page.getByRole('button', { name: COPY.forgot.submit }).click();
    const dialog = page.getByRole('dialog');
    await expect(dialog).toContainText(COPY.forgot.sentTitle);
    await expect(dialog).toContainText(COPY.forgot.sentMessage);
    await dialog.getByRole('button', { name: COPY.forgot.toSignIn }).press('Escape');
    await expect(dialog).toHaveCount(0);

    await page.getByPlaceholder(COPY.login.identifierPlaceholder).fill(account.email);
    await page.getByRole('button', { name: COPY.forgot.submit }).click();
    await expect(dialog).toContainText(COPY.forgot.sentTitle);
    const resetLink = /http:\/\/127\.0\.0\.1:\d+(\/reset\/[\w-]{43})/;
    const mail = await mailTo(account.email, resetLink);
    const link = resetLink.exec(mail.text)?.[1];
    expect(link, mail.text).toBeDefined();
    await dialog.getByRole('button', { name: COPY.forgot.toSignIn }).click();
    await expect(page).toHaveURL('/login');

    await page.goto(link!);
    await chooseNewPassword(page, account.username);
    await expect(page).toHaveURL('/');
    expect((await request.get(API.me)).status()).toBe(401);
  });

  test('the sign-in screen offers Forgot password? in sign-in mode only', async ({ page }) => {
    await page.goto('/login');
    await expect(page.getByRole('link', { name: COPY.forgot.link })).toBeVisible();
    await page.getByRole('button', { name: 'New Account' }).click();
    await expect(page.getByRole('link', { name: COPY.forgot.link })).toHaveCount(0);
  });
});
