import { expect, type Page } from '@playwright/test';

let counter = 0;

/** A unique, valid account for this test run. */
export function newAccount(prefix = 'e2e') {
  counter += 1;
  const tag = `${Date.now().toString(36).slice(-5)}${process.pid % 100}${counter}`;
  return { username: `${prefix}_${tag}`.slice(0, 20), email: `${prefix}.${tag}@example.com`, password: 'studentliving1' };
}

export async function signUp(page: Page, account = newAccount()) {
  await page.goto('/login');
  await page.getByRole('button', { name: 'New Account' }).click();
  await page.getByPlaceholder('Username').fill(account.username);
  await page.getByPlaceholder('Email').fill(account.email);
  await page.getByPlaceholder('Password').fill(account.password);
  await page.getByRole('button', { name: 'Create' }).click();
  await expect(page).toHaveURL('/');
  return account;
}

export async function signIn(page: Page, identifier: string, password: string) {
  await page.goto('/login');
  await page.getByPlaceholder('Username or Email').fill(identifier);
  await page.getByPlaceholder('Password').fill(password);
  await page.getByRole('button', { name: 'Enter' }).click();
}

export async function signOut(page: Page) {
  await page.goto('/settings');
  // exact: 'Sign out everywhere' would match too.
  await page.getByRole('button', { name: 'Sign Out', exact: true }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText("No don't leave us!");
  await dialog.getByRole('button', { name: 'Sign Out' }).click();
  await expect(page).toHaveURL('/login');
}

/** The login screen's error area: one message per line. */
export function loginErrors(page: Page) {
  return page.getByTestId('login-errors');
}
