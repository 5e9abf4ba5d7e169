import { randomBytes } from 'node:crypto';
import { expect, test, type Page } from '@playwright/test';
import { API } from '../../src/shared/api/paths';
import { ssoApi } from '../../src/shared/api/sso';
import * as COPY from '../../src/shared/copy';
import { ERRORS, type ErrorCode } from '../../src/shared/errors';
import { newAccount, signIn, signOut, signUpViaApi, WALK_TIMEOUT } from './helpers';
import { MAIL_URL, mailTo, OIDC, type OidcAccountKind } from './mail';

/**
 * Single sign-on in Chromium (issue 29), against a real OpenID provider (oidc-provider, started by
 * global-setup.ts): the whole redirect flow, through the provider's own login page.
 */
test.use({ baseURL: MAIL_URL });

/** A new account at the provider; its kind picks how the provider behaves for it (mail.ts). */
const accountAt = (kind: OidcAccountKind) => `${kind}-${randomBytes(4).toString('hex')}`;
const student = () => accountAt('student');

/** The provider's redirect back to the app, with the code and the state. */
const isCallback = (url: string) => new URL(url).pathname === ssoApi.ssoCallback.path;

/** At the provider's login page: signs in as `sub`. */
async function atProvider(page: Page, sub: string) {
  await expect(page).toHaveURL(new RegExp(`^${OIDC.issuer(Number(process.env.E2E_PORT) || 3100)}/interaction/`));
  await page.getByLabel('Account').fill(sub);
  await page.getByRole('button', { name: 'Continue' }).click();
}

/** The sign-in screen, saying why single sign-on was refused (`code`'s words); nobody is signed in in this browser. */
async function expectRefused(page: Page, code: ErrorCode) {
  await expect(page).toHaveURL(new RegExp(`/login\\?sso=${code}$`));
  await expect(page.getByTestId('login-errors')).toHaveText(ERRORS[code]);
  // The screen itself, to try again from: not an error page.
  await expect(page.getByRole('link', { name: COPY.sso.continueWith(OIDC.name) })).toBeVisible();
  expect((await page.request.get(API.me)).status()).toBe(401);
}

/**
 * From the sign-in screen, signs in at the provider as `sub`, which the app refuses with `code`:
 * the provider's redirect back is answered with a redirect to the sign-in screen, never a 500.
 */
async function refusedSignIn(page: Page, sub: string, code: ErrorCode) {
  await page.goto('/login');
  await page.getByRole('link', { name: COPY.sso.continueWith(OIDC.name) }).click();
  const callback = page.waitForResponse((response) => isCallback(response.url()));
  await atProvider(page, sub);
  expect((await callback).status()).toBe(302);
  await expectRefused(page, code);
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

/** A first single sign-on as a new `student-…`, through to Home: its username and address. */
async function ssoSignUp(page: Page) {
  const sub = student();
  await page.goto('/login');
  await page.getByRole('link', { name: COPY.sso.continueWith(OIDC.name) }).click();
  await atProvider(page, sub);
  await expect(page).toHaveURL('/sso/welcome');
  await page.getByRole('button', { name: COPY.sso.create }).click();
  await expect(page).toHaveURL('/');
  return { sub, username: sub.replace(/-/g, '_'), email: `${sub}@${OIDC.domain}` };
}

test('graduation: an account that signs in only with the university is told to add a password and its own address, and adds both', async ({
  page,
}) => {
  test.setTimeout(WALK_TIMEOUT);
  const { sub, username } = await ssoSignUp(page);
  const reminder = page.getByRole('note').filter({ hasText: COPY.sso.onlyThrough(OIDC.name) });

  await page.goto('/settings');
  await expect(reminder).toBeVisible();
  await page.goto('/settings/sso');
  await expect(page.getByText(COPY.sso.connected(OIDC.name))).toBeVisible();
  await expect(page.getByText(new RegExp(`^${OIDC.name} last signed you in on `))).toBeVisible();
  await expect(reminder).toBeVisible();

  // Its own address, with no password to type: a recent sign-in is the proof.
  await reminder.getByRole('link', { name: COPY.sso.addAddress }).click();
  await expect(page).toHaveURL('/settings/email');
  await expect(page.getByLabel(COPY.emailSettings.currentPassword)).toHaveCount(0);
  const own = newAccount('own').email;
  await page.getByLabel(COPY.emailSettings.newEmail).fill(own);
  await page.getByRole('button', { name: COPY.emailSettings.submit }).click();
  await expect(page.getByRole('dialog')).toContainText(COPY.emailSettings.changed(own));
  await page.keyboard.press('Escape');
  expect((await mailTo(own, /\/verify\//)).text).toContain(own);

  // Sign in again (what those pages offer once the sign-in is older than 10 minutes): the
  // provider asks afresh, and the browser comes back to the page it left.
  await page.goto(`${ssoApi.ssoStart.path}?again=${encodeURIComponent('/settings/password')}`);
  await atProvider(page, sub);
  await expect(page).toHaveURL('/settings/password');

  // A password, typed twice, no current one.
  await page.goto('/settings/sso');
  await reminder.getByRole('link', { name: COPY.sso.addPassword }).click();
  await expect(page).toHaveURL('/settings/password');
  await expect(page.getByLabel(COPY.security.currentPassword)).toHaveCount(0);
  await page.getByLabel(COPY.security.newPassword, { exact: true }).fill('after graduation 2');
  await page.getByLabel(COPY.security.confirmPassword).fill('after graduation 2');
  await page.getByRole('button', { name: COPY.settings.changePassword }).click();
  await expect(page.getByRole('dialog')).toContainText(COPY.security.changedTitle);

  // It signs in with the password now, and is reminded of nothing.
  await page.goto('/settings');
  await expect(page.getByRole('heading', { name: COPY.settings.security })).toBeVisible();
  await expect(reminder).toHaveCount(0);
  await signOut(page);
  await signIn(page, username, 'after graduation 2');
  await expect(page).toHaveURL('/');
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
  await page.goto(`${ssoApi.ssoCallback.path}?code=${'x'.repeat(20)}&state=${'y'.repeat(20)}`);
  await expectRefused(page, 'SSO_FAILED');
});

test('a replayed callback (its code used already) signs nobody in, in the same browser or in another with its state cookie', async ({
  page,
  browser,
}) => {
  test.setTimeout(WALK_TIMEOUT);
  await page.goto('/login');
  await page.getByRole('link', { name: COPY.sso.continueWith(OIDC.name) }).click();
  const callback = page.waitForRequest((request) => isCallback(request.url()));
  await atProvider(page, student());
  const back = (await callback).url();
  // The first use of the code and the state: a first sign-in, asking for a username.
  await expect(page).toHaveURL('/sso/welcome');

  // Again in this browser: its state cookie went with the first use.
  await page.goto(back);
  await expectRefused(page, 'SSO_FAILED');

  // Whoever saw the URL sends it from their own browser, with the state cookie that went with it
  // (the state, as the URL has it): past the state check, the sign-in is used up, and the code too.
  const other = await browser.newContext({ baseURL: MAIL_URL });
  try {
    const state = new URL(back).searchParams.get('state')!;
    await other.addCookies([
      { name: 'sso_state', value: state, domain: '127.0.0.1', path: '/api/auth/sso', httpOnly: true, sameSite: 'Lax' },
    ]);
    const replay = await other.newPage();
    await replay.goto(back);
    await expectRefused(replay, 'SSO_FAILED');
  } finally {
    await other.close();
  }
});

for (const { kind, what, code } of [
  { kind: 'forged', what: 'an ID token signed with another key (under the provider’s key id)', code: 'SSO_FAILED' },
  { kind: 'expired', what: 'an expired ID token (signed by the provider)', code: 'SSO_FAILED' },
  { kind: 'otheriss', what: 'an ID token from another issuer (signed with the provider’s key)', code: 'SSO_FAILED' },
  { kind: 'alumni', what: 'an address at a domain the site is not for (OIDC_ALLOWED_DOMAINS)', code: 'SSO_DOMAIN_NOT_ALLOWED' },
  { kind: 'down', what: 'the provider gone down before the code is exchanged', code: 'SSO_UNAVAILABLE' },
] satisfies { kind: OidcAccountKind; what: string; code: ErrorCode }[]) {
  test(`${what}: nobody is signed in, and the sign-in screen says ${code}`, async ({ page }) => {
    await refusedSignIn(page, accountAt(kind), code);
  });
}
