import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { API } from '../../src/shared/api/paths';
import { holdRequests, newAccount, signUpViaApi, WALK_TIMEOUT } from './helpers';
import { photo } from './images';

/** Posts a photo as the signed-in account and returns the new post's id. */
async function postPhoto(request: APIRequestContext, description: string, width = 900, height = 1200) {
  const response = await request.post(API.posts, {
    multipart: { photo: await photo(description.slice(0, 12), width, height), description, link: '' },
  });
  expect(response.status(), await response.text()).toBe(201);
  return ((await response.json()) as { post: { id: string } }).post.id;
}

/**
 * Sums the page's layout shifts as CLS does (shifts right after input do not count), from the
 * first paint: installed before any script of the page runs.
 */
async function recordLayoutShifts(page: Page) {
  await page.addInitScript(() => {
    const win = window as unknown as { layoutShift: number };
    win.layoutShift = 0;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as unknown as { value: number; hadRecentInput: boolean }[]) {
        if (!entry.hadRecentInput) win.layoutShift += entry.value;
      }
    }).observe({ type: 'layout-shift', buffered: true });
  });
  return () => page.evaluate(() => (window as unknown as { layoutShift: number }).layoutShift);
}

test('a slow photo does not move the page: its box is reserved before it loads (CLS <= 0.02)', async ({ page }) => {
  test.setTimeout(WALK_TIMEOUT);
  await signUpViaApi(page.request, newAccount('cls'));
  const description = `Tall window light ${Date.now()} #dormlife`;
  const id = await postPhoto(page.request, description, 900, 1600);
  await signUpViaApi(page.request, newAccount('clsview'));

  // Photos (and icons) arrive only once the test has measured the box, as on a slow connection.
  const releasePhotos = await holdRequests(page, '**/media/**');
  const layoutShift = await recordLayoutShifts(page);
  await page.goto(`/post/${id}`);

  const image = page.getByRole('img', { name: description, exact: true });
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  // Before a byte of the photo: the box already has the photo's shape (900 x 1600).
  expect(await image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(false);
  const reserved = (await image.boundingBox())!;
  expect(reserved.height).toBeGreaterThan(200);
  expect(reserved.width / reserved.height).toBeCloseTo(900 / 1600, 2);

  releasePhotos();
  await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
  await expect(page.getByRole('heading', { name: 'Discover' })).toBeAttached();
  // The last changes rendered before reading the sum: related posts in, the photo decoded, and
  // two more frames painted (a layout shift is reported with the frame that shows it).
  await expect(page.getByText('Loading related posts')).toHaveCount(0);
  await image.evaluate((img: HTMLImageElement) => img.decode());
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
  expect(await image.boundingBox()).toEqual(reserved);
  expect(await layoutShift()).toBeLessThanOrEqual(0.02);
});

test('the photo first: Discover and the Save button’s boards are asked for once it shows', async ({ page }) => {
  await signUpViaApi(page.request, newAccount('first'));
  const description = `Morning desk ${Date.now()} #dormlife`;
  const id = await postPhoto(page.request, description);
  await signUpViaApi(page.request, newAccount('firstview'));

  const releasePhotos = await holdRequests(page, '**/media/**');
  const asked: string[] = [];
  page.on('request', (request) => {
    const { pathname, search } = new URL(request.url());
    if (pathname + search === API.related(id) || pathname + search === API.saveTargets(id)) asked.push(pathname + search);
  });
  await page.goto(`/post/${id}`);
  await expect(page.getByRole('heading', { level: 1, name: description.split(' #')[0] })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Save' })).toBeVisible();
  await expect(page.getByText('Loading related posts')).toBeAttached();
  expect(asked).toEqual([]);

  releasePhotos();
  await expect(page.getByText('Loading related posts')).toHaveCount(0);
  await expect.poll(() => asked.sort()).toEqual([API.related(id), API.saveTargets(id)].sort());
});

test('the post page: one h1, hashtags once as links, a relative date', async ({ page }) => {
  const stamp = Date.now();
  const author = await signUpViaApi(page.request, newAccount('tags'));
  const id = await postPhoto(page.request, `Rooftop sunset ${stamp} #DormLife #views`);
  await signUpViaApi(page.request, newAccount('tagview'));
  // Three hours and a minute later, by the browser's clock.
  await page.clock.setFixedTime(new Date(Date.now() + (3 * 60 + 1) * 60_000));
  await page.goto(`/post/${id}`);

  // The heading is what the post says; its hashtags are on their own line, not repeated in it.
  const heading = page.getByRole('heading', { level: 1 });
  await expect(heading).toHaveCount(1);
  await expect(heading).toHaveText(`Rooftop sunset ${stamp}`);
  await expect(page.getByText('#dormlife #views', { exact: true })).toBeVisible();
  await expect(page.getByText(/#DormLife/)).toHaveCount(0);

  const time = page.locator('time');
  await expect(time).toHaveText('3 hours ago');
  const iso = await time.getAttribute('datetime');
  expect(new Date(iso!).toISOString()).toBe(iso);
  expect(Math.abs(new Date(iso!).getTime() - stamp)).toBeLessThan(60_000);

  await expect(page.getByRole('link', { name: '#views', exact: true })).toHaveAttribute('href', '/search/views');
  await page.getByRole('link', { name: '#dormlife', exact: true }).click();
  await expect(page).toHaveURL('/search/dormlife');
  await expect(page.getByRole('img', { name: `Rooftop sunset ${stamp} #DormLife #views`, exact: true })).toBeVisible();
  expect(author.username).toBeTruthy();
});

test('a post without words still has its one h1, naming the author', async ({ page }) => {
  const author = await signUpViaApi(page.request, newAccount('only'));
  const id = await postPhoto(page.request, '#justtags');
  await page.goto(`/post/${id}`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Post by @${author.username}`);
  await expect(page.getByRole('article').getByRole('link', { name: '#justtags' })).toHaveAttribute('href', '/search/justtags');
});

test('layout: photo and details side by side on a desktop, Discover in view; stacked on a phone', async ({ page }, testInfo) => {
  await signUpViaApi(page.request, newAccount('wide'));
  const description = `Desk setup ${Date.now()} #desk`;
  const id = await postPhoto(page.request, description, 1200, 900);
  await signUpViaApi(page.request, newAccount('wideview'));
  await page.goto(`/post/${id}`);
  const photoBox = (await page.getByRole('img', { name: description, exact: true }).boundingBox())!;
  const detailsBox = (await page.getByRole('heading', { level: 1 }).boundingBox())!;
  if (testInfo.project.name === 'desktop') {
    expect(detailsBox.x).toBeGreaterThanOrEqual(photoBox.x + photoBox.width);
    expect(detailsBox.y).toBeLessThan(photoBox.y + photoBox.height);
    await expect(page.getByRole('heading', { name: 'Discover' })).toBeInViewport();
  } else {
    expect(detailsBox.y).toBeGreaterThanOrEqual(photoBox.y + photoBox.height);
  }
});

test("Share on a post copies its link where the browser has no share sheet, and says 'Link copied'", async ({ page, context, baseURL }) => {
  test.setTimeout(WALK_TIMEOUT);
  await signUpViaApi(page.request, newAccount('share'));
  const id = await postPhoto(page.request, `Shared desk ${Date.now()} #dormlife`);
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.goto(`/post/${id}`);
  // Desktop Chromium on Linux has no Web Share: the copy path.
  expect(await page.evaluate(() => typeof navigator.share)).toBe('undefined');
  await page.getByRole('button', { name: 'Share this post' }).click();
  await expect(page.getByTestId('share-notice')).toHaveText('Link copied');
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(new URL(`/post/${id}`, baseURL).href);
});
