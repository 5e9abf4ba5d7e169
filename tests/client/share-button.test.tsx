// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ShareButton } from '../../src/client/ui/ShareButton';
import * as COPY from '../../src/shared/copy';

/**
 * Share (issue 31): the system's share sheet where the browser has one, else the link copied
 * with a notice. The browser's two APIs are given per test, as each kind of browser has them.
 */

const withApis = (apis: { share?: (data: ShareData) => Promise<void>; writeText?: (text: string) => Promise<void> }) => {
  Object.defineProperty(navigator, 'share', { value: apis.share, configurable: true });
  Object.defineProperty(navigator, 'canShare', { value: apis.share ? () => true : undefined, configurable: true });
  Object.defineProperty(navigator, 'clipboard', {
    value: { writeText: apis.writeText ?? (() => Promise.reject(new Error('denied'))) },
    configurable: true,
  });
};

afterEach(() => {
  cleanup();
  for (const key of ['share', 'canShare', 'clipboard']) Object.defineProperty(navigator, key, { value: undefined, configurable: true });
});

const renderShare = () => render(<ShareButton path="/post/p1" title="Fairy lights" label={COPY.share.sharePost} />);
// A plain click: user-event would put its own clipboard in place of the one each test gives.
const press = () => act(async () => void fireEvent.click(screen.getByRole('button', { name: 'Share this post' })));
const link = () => new URL('/post/p1', window.location.origin).href;

describe('ShareButton', () => {
  it("opens the system's share sheet with the title and the absolute link, and says nothing more", async () => {
    const share = vi.fn(() => Promise.resolve());
    const writeText = vi.fn(() => Promise.resolve());
    withApis({ share, writeText });
    renderShare();
    await press();
    expect(share).toHaveBeenCalledWith({ title: 'Fairy lights', url: link() });
    expect(writeText).not.toHaveBeenCalled();
    expect(screen.getByTestId('share-notice').textContent).toBe('');
  });

  it('a share sheet dismissed is not an error: nothing is copied, nothing said', async () => {
    const writeText = vi.fn(() => Promise.resolve());
    withApis({ share: () => Promise.reject(new DOMException('dismissed', 'AbortError')), writeText });
    renderShare();
    await press();
    expect(writeText).not.toHaveBeenCalled();
    expect(screen.getByTestId('share-notice').textContent).toBe('');
  });

  it("without a share sheet (a desktop browser), copies the link and says 'Link copied'", async () => {
    const writeText = vi.fn(() => Promise.resolve());
    withApis({ writeText });
    renderShare();
    await press();
    expect(writeText).toHaveBeenCalledWith(link());
    await waitFor(() => expect(screen.getByTestId('share-notice').textContent).toBe('Link copied'));
  });

  it('a share sheet that fails copies instead; a clipboard that refuses says so', async () => {
    const writeText = vi.fn(() => Promise.resolve());
    withApis({ share: () => Promise.reject(new DOMException('not allowed', 'NotAllowedError')), writeText });
    const { unmount } = renderShare();
    await press();
    await waitFor(() => expect(screen.getByTestId('share-notice').textContent).toBe('Link copied'));
    unmount();
    withApis({});
    renderShare();
    await press();
    await waitFor(() => expect(screen.getByTestId('share-notice').textContent).toBe("Couldn't copy the link"));
  });
});
