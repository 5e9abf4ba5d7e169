import { expect, test } from '@playwright/test';
import { loginErrors, newAccount, signIn, signInViaApi, signOut, signUp, signUpViaApi } from './helpers';

test('a signed-out visit to / goes to the login screen with the hero', async ({ page }) => {
  await page.goto('/');
  await expect(page).toHaveURL('/login');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('dormboard');
  await expect(page.getByText('A place to share your')).toBeVisible();
  await expect(page.locator('.hashtag')).toHaveText('#studentliving');
  await expect(page.getByRole('button', { name: 'Enter' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'New Account' })).toBeVisible();
});

test('sign up, sign out, sign in by username and by e-mail', async ({ page }) => {
  const account = await signUp(page);
  expect(JSON.parse((await page.evaluate(() => localStorage.getItem('currentUser'))) ?? 'null')).toMatchObject({
    username: account.username,
  });
  // The login entry was replaced: going back does not return to the form.
  await page.goBack();
  await expect(page).not.toHaveURL('/login');

  await signOut(page);
  expect(await page.evaluate(() => localStorage.getItem('currentUser'))).toBeNull();
  await page.goto('/');
  await expect(page).toHaveURL('/login');

  await signIn(page, account.username, account.password);
  await expect(page).toHaveURL('/');
  await signOut(page);

  await signIn(page, account.email.toUpperCase(), account.password);
  await expect(page).toHaveURL('/');
});

test('create-account messages appear one per line, in the spec order', async ({ page }) => {
  await page.goto('/login');
  await page.getByRole('button', { name: 'New Account' }).click();
  await page.getByRole('button', { name: 'Create' }).click();
  await expect(loginErrors(page)).toHaveText('Fill in all the fields.');

  await page.getByPlaceholder('Username').fill(' A!');
  await page.getByPlaceholder('Email').fill('not-an-email');
  await page.getByPlaceholder('Password').fill(' short');
  await page.getByRole('button', { name: 'Create' }).click();
  await expect(loginErrors(page)).toHaveText(
    [
      'Remove spaces or tabs in your username.',
      'Invalid username.',
      'Invalid email address.',
      'Remove spaces or tabs in your password.',
      'Password must be 8-32 characters long.',
    ].join('\n'),
  );

  await page.getByPlaceholder('Username').fill('ab');
  await page.getByPlaceholder('Email').fill('ab@example.com');
  await page.getByPlaceholder('Password').fill('a'.repeat(33));
  await page.getByRole('button', { name: 'Create' }).click();
  await expect(loginErrors(page)).toHaveText(
    ['Username must be 3-20 characters long.', 'Password must be 8-32 characters long.'].join('\n'),
  );
});

test('taken usernames and e-mails are reported by the server', async ({ page, request }) => {
  const taken = await signUpViaApi(request);
  await page.goto('/login');
  await page.getByRole('button', { name: 'New Account' }).click();
  await page.getByPlaceholder('Username').fill(taken.username.toUpperCase());
  await page.getByPlaceholder('Email').fill(taken.email);
  await page.getByPlaceholder('Password').fill('anotherpassword');
  await page.getByRole('button', { name: 'Create' }).click();
  await expect(loginErrors(page)).toHaveText(['Username has already been registered.', 'Email already registered.'].join('\n'));
  // Switching mode clears the messages.
  await page.getByRole('button', { name: 'Existing Account' }).click();
  await expect(loginErrors(page)).toBeHidden();
});

test('a common password is refused by the server, with its message on screen', async ({ page }) => {
  const account = newAccount();
  await page.goto('/login');
  await page.getByRole('button', { name: 'New Account' }).click();
  await page.getByPlaceholder('Username').fill(account.username);
  await page.getByPlaceholder('Email').fill(account.email);
  await page.getByPlaceholder('Password').fill('Password1');
  await page.getByRole('button', { name: 'Create' }).click();
  await expect(loginErrors(page)).toHaveText('This password is too common.');
  await expect(page).toHaveURL('/login');
});

test('sign out everywhere ends the sessions of every browser', async ({ page, browser, baseURL }) => {
  const account = await signUpViaApi(page.request);
  // Another browser, signed in too.
  const other = await browser.newContext({ baseURL });
  await signInViaApi(other.request, account);
  expect((await other.request.get('/api/me')).status()).toBe(200);

  await page.goto('/settings');
  await page.getByRole('button', { name: 'Sign out everywhere' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText('You will be signed out on every device, this one included.');
  await dialog.getByRole('button', { name: 'Sign out everywhere' }).click();
  await expect(page).toHaveURL('/login');

  // The other browser's session is gone too: its cookie no longer signs it in.
  expect((await other.request.get('/api/me')).status()).toBe(401);
  await other.close();
});

test('sign-in messages', async ({ page, request }) => {
  const account = await signUpViaApi(request);
  await page.goto('/login');

  await page.getByRole('button', { name: 'Enter' }).click();
  await expect(loginErrors(page)).toHaveText('Fill in all the fields.');

  await signIn(page, 'nobody_here', 'whatever1');
  await expect(loginErrors(page)).toHaveText('Username not registered.');

  await signIn(page, account.username, 'wrong password');
  await expect(loginErrors(page)).toHaveText('Incorrect log in details.');

  await signIn(page, 'nobody@example.com', 'whatever1');
  await expect(loginErrors(page)).toHaveText('Incorrect log in details.');
  await expect(page).toHaveURL('/login');
});

test('the sign-out confirmation is a dialog that Cancel and Escape dismiss', async ({ page }) => {
  await signUpViaApi(page.request);
  await page.goto('/settings');
  await page.getByRole('button', { name: 'Sign Out', exact: true }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText('Are you sure you want to log out of dormboard?');
  // The least destructive action has focus: Enter must not sign out by accident.
  await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused();
  // Focus stays inside the modal dialog.
  await page.keyboard.press('Shift+Tab');
  await expect(dialog.getByRole('button', { name: 'Sign Out' })).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  // Focus is back on the row that opened the dialog.
  await expect(page.getByRole('button', { name: 'Sign Out', exact: true })).toBeFocused();
  await page.getByRole('button', { name: 'Sign Out', exact: true }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByRole('dialog')).toBeHidden();
  await expect(page).toHaveURL('/settings');
});

test('not-found pages and the signed-out profile tab', async ({ page }) => {
  await page.goto('/404');
  await expect(page.getByRole('heading', { name: 'Not found :(' })).toBeVisible();
  await page.goto('/404/Failed to sign out :(');
  await expect(page.getByRole('heading', { name: 'Failed to sign out :(' })).toBeVisible();
  await page.goto('/no/such/page');
  await expect(page.getByRole('heading', { name: 'Not found :(' })).toBeVisible();

  await page.getByRole('button', { name: 'Your profile' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText('Not signed in!');
  await expect(dialog).toContainText('You need to sign in to access your board.');
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(dialog).toBeHidden();
  await page.getByRole('button', { name: 'Your profile' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Sign In' }).click();
  await expect(page).toHaveURL('/login');
});

test('the Your University tab shows its notice', async ({ page }) => {
  await signUpViaApi(page.request);
  await page.goto('/');
  await page.getByRole('tab', { name: 'Your University' }).click();
  await expect(page.getByText('Still working on it!')).toBeVisible();
  await expect(page.getByText('This page has not been created yet!')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Go Back' })).toBeVisible();
});

test('a taken username is listed with the other sign-up messages, before the e-mail line', async ({ page, request }) => {
  const taken = await signUpViaApi(request);
  await page.goto('/login');
  await page.getByRole('button', { name: 'New Account' }).click();
  await page.getByPlaceholder('Username').fill(taken.username);
  await page.getByPlaceholder('Email').fill('bad');
  await page.getByPlaceholder('Password').fill('anotherpassword');
  await page.getByRole('button', { name: 'Create' }).click();
  await expect(loginErrors(page)).toHaveText(['Username has already been registered.', 'Invalid email address.'].join('\n'));
  await expect(page).toHaveURL('/login');
});

test('a failed sign-out removes the cached currentUser, then shows the 404 page', async ({ page }) => {
  const account = await signUpViaApi(page.request);
  await page.goto('/settings');
  const cachedUser = () => page.evaluate(() => localStorage.getItem('currentUser'));
  await expect.poll(cachedUser).toContain(account.username);
  await page.route('**/api/auth/logout', (route) =>
    route.fulfill({ status: 500, json: { code: 'GENERIC', message: 'Something went wrong. Please try again.' } }),
  );
  await page.getByRole('button', { name: 'Sign Out', exact: true }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Sign Out' }).click();
  await expect(page).toHaveURL(`/404/${encodeURIComponent('Failed to sign out :(')}`);
  await expect(page.getByText('Failed to sign out :(')).toBeVisible();
  expect(await cachedUser()).toBeNull();
});
