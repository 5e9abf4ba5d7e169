import { chromium, type Page } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../chromium.js';

/** Chrome DevTools' "Slow 4G" preset as the issue defines it. */
export const SLOW_4G = { latency: 150, downloadBytesPerSecond: 1_600_000 / 8, uploadBytesPerSecond: 750_000 / 8 };

export interface FirstView {
  bytes: number;
  requests: number;
  imageBytes: number;
  imageRequests: number;
  lcpMs: number;
  cls: number;
  /** The image URLs the grid asked for (to price the full-size alternative). */
  imageUrls: string[];
}

/** Collects LCP and CLS as the page reports them (buffered, so nothing before load is missed). */
function observeVitals(page: Page) {
  return page.addInitScript(() => {
    const vitals = { lcp: 0, cls: 0 };
    (window as unknown as { __vitals: typeof vitals }).__vitals = vitals;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) vitals.lcp = entry.startTime;
    }).observe({ type: 'largest-contentful-paint', buffered: true });
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as Array<PerformanceEntry & { value: number; hadRecentInput: boolean }>) {
        if (!entry.hadRecentInput) vitals.cls += entry.value;
      }
    }).observe({ type: 'layout-shift', buffered: true });
  });
}

/**
 * A signed-in student's first view of the home feed on a phone (390×844), cold cache:
 * everything transferred (compressed bytes on the wire), LCP and CLS.
 */
export async function measureFirstView(options: {
  baseUrl: string;
  identifier: string;
  password: string;
  throttle?: typeof SLOW_4G;
  deviceScaleFactor?: number;
}): Promise<FirstView> {
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  try {
    const context = await browser.newContext({
      viewport: { width: 390, height: 844 },
      deviceScaleFactor: options.deviceScaleFactor ?? 3,
      isMobile: true,
      hasTouch: true,
    });
    // Sign in through the API: the session cookie lands in this context; nothing else is cached.
    const login = await context.request.post(`${options.baseUrl}/api/auth/login`, {
      data: { identifier: options.identifier, password: options.password },
    });
    if (!login.ok()) throw new Error(`bench sign-in failed: ${login.status()} ${await login.text()}`);

    const page = await context.newPage();
    await observeVitals(page);
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
    if (options.throttle) {
      await cdp.send('Network.emulateNetworkConditions', {
        offline: false,
        latency: options.throttle.latency,
        downloadThroughput: options.throttle.downloadBytesPerSecond,
        uploadThroughput: options.throttle.uploadBytesPerSecond,
      });
    }
    const types = new Map<string, string>();
    const urls = new Map<string, string>();
    let bytes = 0;
    let requests = 0;
    let imageBytes = 0;
    let imageRequests = 0;
    const imageUrls: string[] = [];
    cdp.on('Network.responseReceived', (event) => {
      types.set(event.requestId, event.type);
      urls.set(event.requestId, event.response.url);
    });
    cdp.on('Network.loadingFinished', (event) => {
      // Inline data: URLs (the blurred placeholders) cost no request and no transfer.
      if (urls.get(event.requestId)?.startsWith('data:')) return;
      requests += 1;
      bytes += event.encodedDataLength;
      if (types.get(event.requestId) === 'Image') {
        imageRequests += 1;
        imageBytes += event.encodedDataLength;
        imageUrls.push(urls.get(event.requestId)!);
      }
    });

    await page.goto(`${options.baseUrl}/`, { waitUntil: 'load' });
    await page.locator('a[href^="/post/"] img').first().waitFor();
    await page.waitForLoadState('networkidle');
    await page.waitForTimeout(500);
    const vitals = await page.evaluate(() => (window as unknown as { __vitals: { lcp: number; cls: number } }).__vitals);
    return { bytes, requests, imageBytes, imageRequests, lcpMs: Math.round(vitals.lcp), cls: vitals.cls, imageUrls };
  } finally {
    await browser.close();
  }
}
