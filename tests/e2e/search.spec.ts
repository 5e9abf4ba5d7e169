import { expect, test } from '@playwright/test';
import { newAccount, postViaApi, signUpViaApi, WALK_TIMEOUT } from './helpers';

test('search from the top bar finds people and posts; results open', async ({ page }) => {
  test.setTimeout(WALK_TIMEOUT);
  const word = `zq${Date.now().toString(36)}`;
  const author = await signUpViaApi(page.request, newAccount('srch'));
  await postViaApi(page.request, `Late night ${word}session in the library`);
  // Someone else, in the same browser (the author's session is replaced).
  await signUpViaApi(page.request, newAccount('finder'));
  await page.goto('/');

  // A partial word finds the post (keywords hold every substring).
  const box = page.getByRole('searchbox', { name: 'Search' });
  await box.fill(word.slice(0, 8));
  await box.press('Enter');
  await expect(page).toHaveURL(`/search/${word.slice(0, 8)}`);
  await expect(page.getByRole('searchbox', { name: 'Search' })).toHaveValue(word.slice(0, 8));
  await expect(page.getByRole('heading', { level: 1 })).toContainText(word.slice(0, 8));
  const card = page.getByAltText(`Late night ${word}session in the library`);
  await expect(card).toBeVisible();

  // People: '@' prefix, case-insensitive.
  const people = page.getByRole('searchbox', { name: 'Search' });
  await people.fill(`@${author.username.slice(0, 9).toUpperCase()}`);
  await people.press('Enter');
  const person = page.getByRole('region', { name: 'People' }).getByRole('link', { name: new RegExp(`@${author.username}`) });
  await expect(person).toBeVisible();
  await person.click();
  await expect(page).toHaveURL(`/@${author.username}`);

  await page.goBack();
  await page.goto(`/search/${word}`);
  await page.getByAltText(`Late night ${word}session in the library`).click();
  await expect(page).toHaveURL(/\/post\//);
});

test('people results show whole usernames, wrapped rather than cut', async ({ page }) => {
  // The longest a username can be (20 characters), as in '@coffee_…' before.
  const long = await signUpViaApi(page.request, newAccount('coffee_lover_club'));
  expect(long.username).toHaveLength(20);
  // Someone else searches (your own name is not among the results).
  await signUpViaApi(page.request, newAccount('reader'));
  await page.goto(`/search/@${long.username}`);
  const name = page.getByRole('region', { name: 'People' }).getByText(`@${long.username}`, { exact: true });
  await expect(name).toBeVisible();
  // Nothing of it is hidden: the text fits its box (an ellipsis would leave it wider).
  expect(await name.evaluate((element) => element.scrollWidth <= element.clientWidth)).toBe(true);
});
