import { expect, test } from '@playwright/test';
import { ERRORS } from '../../src/shared/errors';
import { loginErrors, newAccount, signUpViaApi } from './helpers';
import { adminInvite, invitePortFor, runAdmin } from './registration';

/**
 * Who may sign up (issue 17 point 6), at both sizes: on the REGISTRATION=invite server the
 * create-account form asks for an Invite code, refuses a wrong one and takes one made with
 * `npm run admin -- invite`; on the open server it does not ask. Admins make, see and revoke
 * codes on /moderation/invites; to a member that page is not found.
 */

test('invite mode: the Invite code field, a wrong code, a working code', async ({ page, baseURL }) => {
  const invitePort = invitePortFor(Number(new URL(baseURL!).port));
  const inviteUrl = `http://127.0.0.1:${invitePort}`;
  const account = newAccount('inv');

  // The open server's form does not ask for a code.
  await page.goto('/login');
  await page.getByRole('button', { name: 'New Account' }).click();
  await expect(page.getByRole('button', { name: 'Create' })).toBeVisible();
  await expect(page.getByPlaceholder('Invite code')).toHaveCount(0);

  await page.goto(`${inviteUrl}/login`);
  // Only the create-account form asks.
  await expect(page.getByPlaceholder('Invite code')).toHaveCount(0);
  await page.getByRole('button', { name: 'New Account' }).click();
  const code = page.getByRole('textbox', { name: 'Invite code' });
  await expect(code).toBeVisible();
  await page.getByPlaceholder('Username').fill(account.username);
  await page.getByPlaceholder('Email').fill(account.email);
  await page.getByPlaceholder('Password').fill(account.password);
  await code.fill('WRNG-CODE-2345');
  await page.getByRole('button', { name: 'Create' }).click();
  await expect(loginErrors(page)).toHaveText(ERRORS.INVITE_CODE_INVALID);
  await expect(page).toHaveURL(`${inviteUrl}/login`);
  await page.screenshot({ path: test.info().outputPath('invite-code-field.png') });

  // Typed as people do: lower case, spaces for dashes.
  const invite = await adminInvite(invitePort);
  await code.fill(invite.toLowerCase().replaceAll('-', ' '));
  await page.getByRole('button', { name: 'Create' }).click();
  await expect(page).toHaveURL(`${inviteUrl}/`);

  // Used up: the next person is refused.
  const next = newAccount('inv');
  const again = await page.request.post(`${inviteUrl}/api/auth/register`, { data: { ...next, inviteCode: invite } });
  expect(again.status()).toBe(400);
  expect(((await again.json()) as { messages: string[] }).messages).toEqual([ERRORS.INVITE_CODE_INVALID]);
});

test('Invites on /moderation/invites: an admin makes a code, sees it live, revokes it; a member gets not found', async ({
  page,
  baseURL,
}) => {
  const port = Number(new URL(baseURL!).port);
  await signUpViaApi(page.request, newAccount('mem'));
  await page.goto('/moderation/invites');
  await expect(page.getByText('Not found :(')).toBeVisible();

  const admin = await signUpViaApi(page.request, newAccount('adm'));
  await runAdmin(port, ['role', admin.username, 'admin']);
  await page.goto('/moderation/invites');
  await expect(page.getByRole('heading', { name: 'Invites', level: 1 })).toBeVisible();
  await page.getByRole('spinbutton', { name: 'Uses' }).fill('0');
  await page.getByRole('button', { name: 'Create Invite Code' }).click();
  await expect(page.getByTestId('invite-errors')).toHaveText('Uses: 1–1000');

  await page.getByRole('spinbutton', { name: 'Uses' }).fill('3');
  await page.getByRole('spinbutton', { name: 'Valid for (days)' }).fill('2');
  await page.getByRole('button', { name: 'Create Invite Code' }).click();
  const shown = page.getByTestId('new-invite-code');
  await expect(shown).toHaveText(/^[2-9A-Z]{4}-[2-9A-Z]{4}-[2-9A-Z]{4}$/);
  await expect(page.getByText(/Works for 3 sign-ups until .+\. Copy it now: it is not shown again\./)).toBeVisible();
  const live = page
    .getByRole('list', { name: 'Live codes' })
    .getByRole('listitem')
    .filter({ hasText: `made by @${admin.username}` });
  await expect(live).toHaveCount(1);
  await expect(live).toContainText('3 uses left');
  await page.screenshot({ path: test.info().outputPath('invites.png'), fullPage: true });

  await live.getByRole('button', { name: /^Revoke/ }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText('Revoke this invite code?');
  await dialog.getByRole('button', { name: 'Revoke' }).click();
  await expect(live).toHaveCount(0);
});
