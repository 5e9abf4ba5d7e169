import { expect, test } from '@playwright/test';
import { signUpViaApi } from './helpers';

// Runs against its own server that nobody posts to.
test('a brand-new board invites the first post', async ({ page }) => {
  await signUpViaApi(page.request);
  await page.goto('/');
  await expect(page.getByText('Be the first to post!')).toBeVisible();
});
