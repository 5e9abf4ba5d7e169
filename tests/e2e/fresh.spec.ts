import { expect, test } from '@playwright/test';
import { signUp } from './helpers';

// Runs against its own server that nobody posts to.
test('a brand-new board invites the first post', async ({ page }) => {
  await signUp(page);
  await expect(page.getByText('Be the first to post!')).toBeVisible();
});
