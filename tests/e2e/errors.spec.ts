import { expect, test, type Page } from '@playwright/test';
import * as COPY from '../../src/shared/copy';
import { postViaApi, signUpViaApi } from './helpers';

/**
 * Every route sits inside an error boundary: a screen whose code does not arrive, or that breaks
 * while rendering, says so with a Retry button, and the rest of the app keeps working.
 */

const SEARCH_CHUNK = '**/assets/SearchPage-*.js';

/** The boundary's message, announced as an alert. */
function failure(page: Page) {
  return page.getByRole('alert');
}

/** How many times the browser has asked for the search screen's chunk so far. */
function countChunkRequests(page: Page) {
  let count = 0;
  page.on('request', (request) => {
    if (/\/assets\/SearchPage-[^/]*\.js$/.test(request.url())) count += 1;
  });
  return () => count;
}

test('a screen whose code fails to load offers Retry, which loads it again', async ({ page }) => {
  const chunkRequests = countChunkRequests(page);
  await page.route(SEARCH_CHUNK, (route) => route.abort());
  await page.goto('/search/dorm');
  await expect(failure(page).getByRole('heading', { name: COPY.routeError.title })).toBeVisible();
  await expect(failure(page)).toContainText(COPY.routeError.offline);
  const retry = page.getByRole('button', { name: COPY.routeError.retry });
  await expect(retry).toBeVisible();

  // Still failing: Retry asks for the chunk again (React.lazy alone never would) and fails again.
  const before = chunkRequests();
  await retry.click();
  await expect.poll(chunkRequests).toBeGreaterThan(before);
  await expect(failure(page)).toContainText(COPY.routeError.offline);
  // Focus is back on the button, for another try from the keyboard.
  await expect(retry).toBeFocused();

  // The navigation still works, and another route leaves the error behind.
  await page.getByRole('link', { name: 'Home' }).click();
  await expect(page).toHaveURL('/login');
  await expect(page.getByRole('button', { name: 'Enter' })).toBeVisible();
  await expect(failure(page)).toHaveCount(0);

  // Back on the search: failing still, until the connection comes back and Retry loads it.
  await page.goBack();
  await expect(retry).toBeVisible();
  await page.unroute(SEARCH_CHUNK);
  await retry.click();
  await expect(page.getByRole('heading', { level: 1 })).toContainText('dorm');
  await expect(page.getByRole('searchbox', { name: 'Search' })).toHaveValue('dorm');
  await expect(failure(page)).toHaveCount(0);
});

test('a chunk gone after a deploy: Retry loads the new version', async ({ page }) => {
  await page.route(SEARCH_CHUNK, (route) => route.fulfill({ status: 404 }));
  // The server's index.html now names another build's entry script.
  await page.route(
    (url) => url.pathname === '/',
    async (route) => {
      const response = await route.fetch();
      const body = (await response.text()).replace(/\/assets\/index-[^"]+\.js/, '/assets/index-newbuild.js');
      await route.fulfill({ response, body });
    },
  );
  await page.goto('/search/dorm');
  await expect(failure(page)).toContainText(COPY.routeError.newVersion('dormboard'));

  await page.unrouteAll({ behavior: 'wait' });
  await page.evaluate(() => Object.assign(window, { oldVersion: true }));
  await page.getByRole('button', { name: COPY.routeError.retry }).click();
  await expect(page.getByRole('searchbox', { name: 'Search' })).toHaveValue('dorm');
  // A fresh page (the new index.html), not the old one asking again.
  expect(await page.evaluate(() => 'oldVersion' in window)).toBe(false);
});

test('a screen that breaks while rendering offers Retry, which renders it again', async ({ page, request }) => {
  await signUpViaApi(request);
  const id = await postViaApi(request, 'A post whose date will not render');
  // The post screen's "2 minutes ago" throws until the page lifts the flag: a bug in the
  // screen's own code, which no answer's schema can catch.
  await page.addInitScript(() => {
    const format = Intl.RelativeTimeFormat.prototype.format;
    Intl.RelativeTimeFormat.prototype.format = function (
      this: Intl.RelativeTimeFormat,
      ...args: Parameters<Intl.RelativeTimeFormat['format']>
    ) {
      if (!('timesFixed' in window)) throw new Error('A screen that breaks while rendering');
      return format.apply(this, args);
    };
  });
  await page.goto(`/post/${id}`);
  await expect(failure(page).getByRole('heading', { name: COPY.routeError.title })).toBeVisible();
  await expect(failure(page)).toContainText(COPY.routeError.broken);

  await page.evaluate(() => Object.assign(window, { timesFixed: true }));
  await page.getByRole('button', { name: COPY.routeError.retry }).click();
  await expect(page.getByText('A post whose date will not render')).toBeVisible();
  await expect(failure(page)).toHaveCount(0);
});

test('an answer that is not what the route promises is a failed read, not a broken screen', async ({ page }) => {
  // Say, a proxy or a half-finished deploy in between: the schema refuses it before it renders.
  await page.route('**/api/posts/nothing-here', (route) => route.fulfill({ json: { post: { id: 'nothing-here' } } }));
  await page.goto('/post/nothing-here');
  await expect(page.getByText(COPY.post.missingTitle)).toBeVisible();
  await expect(failure(page)).toHaveCount(0);
});

test('the not-found page shows only the texts the app sends, not words from the link', async ({ page }, testInfo) => {
  // One size is enough: this is about what the page says, not its layout.
  test.skip(testInfo.project.name !== 'desktop');
  // Someone else's words, as a heading and tab title on our origin.
  await page.goto('/404/Your%20session%20expired.%20Sign%20in%20again%20at%20evil.example');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(COPY.notFound);
  await expect(page).toHaveTitle(`${COPY.notFound} · dormboard`);
  await expect(page.getByText('Your session expired', { exact: false })).toHaveCount(0);

  // The one the app sends itself (a failed sign-out) still shows.
  await page.goto(`/404/${COPY.settings.signOutFailed}`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(COPY.settings.signOutFailed);
  await expect(page).toHaveTitle(`${COPY.settings.signOutFailed} · dormboard`);
});

test('the build publishes no source maps and no page template', async ({ request }, testInfo) => {
  test.skip(testInfo.project.name !== 'desktop');
  const page = await (await request.get('/')).text();
  const entry = /<script[^>]+src="(\/assets\/index-[^"]+\.js)"/.exec(page)?.[1];
  expect(entry).toBeDefined();
  expect((await request.get(`${entry}.map`)).status()).toBe(404);
  // Not the whole script in a failure message: just whether it names a map.
  expect((await (await request.get(entry!)).text()).includes('sourceMappingURL')).toBe(false);
  for (const url of ['/index.html', '/index.html.gz', '/index.html.br']) {
    const response = await request.get(url);
    expect(response.headers()['content-type'], url).toContain('text/html');
    expect(await response.text(), url).not.toContain('__REGISTRATION__');
  }
});
