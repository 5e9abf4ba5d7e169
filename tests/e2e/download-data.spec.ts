import fs from 'node:fs';
import { expect, test } from '@playwright/test';
import { API } from '../../src/shared/api/paths';
import * as COPY from '../../src/shared/copy';
import { ERRORS } from '../../src/shared/errors';
import { readZip, zipJson } from '../helpers/zip';
import { newAccount, postViaApi, signUpViaApi } from './helpers';

/** Settings → Security → Download My Data (issue 16 point 4), in the browser. */

test('download my data: the page says what the ZIP holds, and the button downloads it', async ({ page }) => {
  const account = await signUpViaApi(page.request, newAccount('dl'));
  await postViaApi(page.request, 'Exported #memories', 'https://example.com/kept');

  await page.goto('/settings');
  await page.getByRole('link', { name: 'Download My Data' }).click();
  await expect(page).toHaveURL('/settings/data');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Download My Data');
  await expect(page).toHaveTitle(/^Download My Data/);
  const contents = page.getByRole('definition');
  await expect(contents).toHaveCount(COPY.dataExport.files.length);
  for (const file of COPY.dataExport.files) await expect(page.getByRole('term').filter({ hasText: file.name })).toBeVisible();

  // The browser's own download of the same-origin GET, with the session cookie.
  const button = page.getByRole('link', { name: 'Download My Data' });
  const downloading = page.waitForEvent('download');
  await button.click();
  const download = await downloading;
  await expect(page.getByTestId('download-status')).toHaveText(COPY.dataExport.starting);
  await expect(button).toHaveAttribute('aria-disabled', 'true');
  await expect(page).toHaveURL('/settings/data');

  const today = new Date().toISOString().slice(0, 10);
  expect(download.suggestedFilename()).toBe(`dormboard-${account.username}-${today}.zip`);
  const zip = await readZip(fs.readFileSync(await download.path()));
  expect(zipJson(zip, 'account.json')).toMatchObject({ username: account.username, email: account.email });
  expect(zipJson(zip, 'posts.json')).toMatchObject([
    { description: 'Exported #memories', link: 'https://example.com/kept', hashtags: ['memories'] },
  ]);
  const photos = [...zip.keys()].filter((name) => name.startsWith('photos/'));
  expect(photos).toHaveLength(1);
  // A real JPEG, whole.
  expect(zip.get(photos[0]!)!.data.subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));
});

test('download my data: a refused download comes back to the page, saying why', async ({ page }) => {
  await signUpViaApi(page.request, newAccount('dlx'));
  // The account's five an hour, used up through the API (the same session as the page's).
  for (let i = 0; i < 5; i++) expect((await page.request.get(API.exportData)).status()).toBe(200);

  await page.goto('/settings/data');
  await page.getByRole('link', { name: 'Download My Data' }).click();
  await expect(page).toHaveURL('/settings/data?error=EXPORTING_TOO_OFTEN');
  await expect(page.getByTestId('download-errors')).toHaveText(ERRORS.EXPORTING_TOO_OFTEN);
  await expect(page.getByRole('alert').filter({ hasText: ERRORS.EXPORTING_TOO_OFTEN })).toBeVisible();
});

test('download my data: signed out, the page asks to sign in', async ({ page }) => {
  await page.goto('/settings/data');
  await expect(page).toHaveURL(/\/login/);
});
