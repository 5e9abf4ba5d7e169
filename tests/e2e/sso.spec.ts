import { randomBytes } from 'node:crypto';
import { expect, test, type Page } from '@playwright/test';
import { API } from '../../src/shared/api/paths';
import * as COPY from '../../src/shared/copy';
import { ERRORS } from '../../src/shared/errors';
import { newAccount, signIn, signOut, signUpViaApi, WALK_TIMEOUT } from './helpers';
import { MAIL_URL, OIDC } from './mail';

/**
 * Single sign-on in Chromium (issue 29), against a real OpenID provider (oidc-provider, started by
 * global-setup.ts): the whole redirect flow, through the provider's own login page.
 */
test.use({ baseURL: MAIL_URL });

const student = () => `student-${randomBytes(4).toString('hex')}`;

/** At the provider's login page: signs in as `sub`. */
async function atProvider(page: Page, sub: string) {
  await expect(page).toHaveURL(new RegExp(`^${OIDC.issuer(Number(process.env.E2E_PORT) || 3100)}/interaction/`));
  await page.getByLabel('Account').fill(sub);
  await page.getByRole('button', { name: 'Continue' }).click();
}

test('first sign-in chooses a username (the provider’s, prefilled); the next one goes straight home', async ({ page }) => {
  test.setTimeout(WALK_TIMEOUT);
  const sub = student();
  await page.goto('/login');
  await page.getByRole('link', { name: COPY.sso.continueWith(OIDC.name) }).click();
  await atProvider(page, sub);

  await expect(page).toHaveURL('/sso/welcome');
  await expect(page.getByText(COPY.sso.welcomeIntro(`${sub}@uni.example.edu`))).toBeVisible();
  const username = page.getByRole('textbox', { name: COPY.login.usernamePlaceholder });
  await expect(username).toHaveValue(sub.replace(/-/g, '_'));
  // The spec's rules and words for the name.
  await username.fill('no spaces allowed');
  await page.getByRole('button', { name: COPY.sso.create }).click();
  await expect(page.getByTestId('sso-errors')).toContainText(ERRORS.USERNAME_INVALID);
  await username.fill(sub.replace(/-/g, '_'));
  await page.getByRole('button', { name: COPY.sso.create }).click();
  await expect(page).toHaveURL('/');

  // The address came verified from the provider: posting is not held back.
  const me = await (await page.request.get(API.me)).json();
  expect(me.user).toMatchObject({ email: `${sub}@uni.example.edu`, emailVerified: true, mustVerify: false });

  await signOut(page);
  await page.goto('/login');
  await page.getByRole('link', { name: COPY.sso.continueWith(OIDC.name) }).click();
  // The provider remembers this browser: straight back, signed in, no username to choose.
  await page.waitForURL((url) => url.pathname === '/' || url.pathname.startsWith('/interaction/'));
  if (page.url().includes('/interaction/')) await atProvider(page, sub);
  await expect(page).toHaveURL('/');
  expect((await page.request.get(API.me)).status()).toBe(200);
});

test('a password account connects the university sign-in in Settings, signs in with it, and disconnects it', async ({ page, browser }) => {
  test.setTimeout(WALK_TIMEOUT);
  const account = await signUpViaApi(page.request, newAccount('linker'));
  const sub = student();
  await page.goto('/settings');
  await page.getByRole('link', { name: OIDC.name }).click();
  await expect(page).toHaveURL('/settings/sso');
  await expect(page.getByText(COPY.sso.notConnected(OIDC.name))).toBeVisible();
  await page.getByRole('link', { name: COPY.sso.connect(OIDC.name) }).click();
  await atProvider(page, sub);
  await expect(page).toHaveURL('/settings/sso?linked=1');
  await expect(page.getByText(COPY.sso.justConnected(OIDC.name))).toBeVisible();
  await expect(page.getByText(COPY.sso.connected(OIDC.name))).toBeVisible();

  // Another browser: the university sign-in is this account's now.
  const other = await browser.newContext({ baseURL: MAIL_URL });
  const phone = await other.newPage();
  await phone.goto('/login');
  await phone.getByRole('link', { name: COPY.sso.continueWith(OIDC.name) }).click();
  await atProvider(phone, sub);
  await expect(phone).toHaveURL('/');
  const me = await (await phone.request.get(API.me)).json();
  expect(me.user.username).toBe(account.username);
  await other.close();

  await page.getByRole('button', { name: COPY.sso.disconnect(OIDC.name) }).click();
  await expect(page.getByText(COPY.sso.disconnected(OIDC.name))).toBeVisible();
  await expect(page.getByText(COPY.sso.notConnected(OIDC.name))).toBeVisible();
  // Still signs in with its password.
  await page.context().clearCookies();
  await signIn(page, account.username, account.password);
  await expect(page).toHaveURL('/');
});

test('a callback that is not this browser’s (a wrong state) signs nobody in and says so on the sign-in screen', async ({ page }) => {
  await page.goto(`/api/auth/sso/callback?code=${'x'.repeat(20)}&state=${'y'.repeat(20)}`);
  await expect(page).toHaveURL(/\/login\?sso=SSO_FAILED$/);
  await expect(page.getByTestId('login-errors')).toHaveText(ERRORS.SSO_FAILED);
  expect((await page.request.get(API.me)).status()).toBe(401);
});
