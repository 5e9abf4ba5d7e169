import { randomBytes } from 'node:crypto';
import { expect, type APIRequestContext, type Page } from '@playwright/test';
import { API } from '../../src/shared/api/paths';
import { photo } from './images';

let counter = 0;

/**
 * A unique, valid account: both viewports' projects and both workers share one server, so the
 * tag is random rather than made of the time and the process (which two workers may share).
 */
/**
 * The time limit of a test that walks through several screens. Limits only guard against hangs,
 * never judge speed: a walk that takes 50 s on one machine of this kind takes 75–125 s on a
 * slower one, or beside another suite, so the limit leaves room for that.
 */
export const WALK_TIMEOUT = 180_000;

/**
 * Holds back every request to `url` (a Playwright route pattern) until the returned function is
 * called; the real server then answers each: what a slow connection looks like, on demand.
 */
export async function holdRequests(page: Page, url: string): Promise<() => void> {
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(url, async (route) => {
    await held;
    await route.continue();
  });
  return () => release();
}

export function newAccount(prefix = 'e2e') {
  counter += 1;
  const tag = `${randomBytes(4).toString('hex')}${counter}`;
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

/**
 * The same account and session as signUp, made through the API: for tests about something else
 * (the forms have their own tests in auth.spec.ts), where filling them in only costs time. With
 * `page.request` the session cookie lands in the page's browser context, replacing any it held
 * (the page is not loaded: go where the test starts); with the `request` fixture the page stays
 * signed out.
 */
export async function signUpViaApi(request: APIRequestContext, account = newAccount()) {
  const response = await request.post(API.register, { data: account });
  expect(response.status(), await response.text()).toBe(201);
  return account;
}

/** Signs in as `account` through the API (see signUpViaApi). */
export async function signInViaApi(request: APIRequestContext, account: { username: string; password: string }) {
  const response = await request.post(API.login, { data: { identifier: account.username, password: account.password } });
  expect(response.status(), await response.text()).toBe(200);
}

/**
 * Posts a photo as the signed-in account through the API, as the upload form would: for tests
 * that need a post to look at (the form itself is posts.spec.ts's). Answers the post's id.
 */
export async function postViaApi(request: APIRequestContext, description: string, link = ''): Promise<string> {
  const response = await request.post(API.posts, {
    multipart: { photo: await photo(description.slice(0, 12)), description, link },
  });
  expect(response.status(), await response.text()).toBe(201);
  return ((await response.json()) as { post: { id: string } }).post.id;
}

/** Makes a board of the signed-in account through the API (issue 18): its id and slug. */
export async function boardViaApi(request: APIRequestContext, name: string, secret = false): Promise<{ id: string; slug: string }> {
  const response = await request.post(API.boards, { data: { name, secret } });
  expect(response.status(), await response.text()).toBe(201);
  return ((await response.json()) as { board: { id: string; slug: string } }).board;
}

/** Saves a post to a board as the signed-in account, through the API. */
export async function saveViaApi(request: APIRequestContext, boardId: string, postId: string) {
  const response = await request.put(API.boardPost(boardId, postId));
  expect(response.status(), await response.text()).toBe(200);
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
