// @vitest-environment happy-dom
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { AccountSettingsPage } from '../../src/client/features/settings/AccountSettingsPage';
import * as COPY from '../../src/shared/copy';
import { ERRORS } from '../../src/shared/errors';
import { BIO_MAX_LENGTH } from '../../src/shared/limits';
import { http, json, me, renderApp, sent, server } from './harness';

const saves = () => sent('PATCH /api/me');
const image = () => new File([new Uint8Array([0xff, 0xd8, 0xff])], 'me.jpg', { type: 'image/jpeg' });

async function chooseIcon(file: File) {
  // applyAccept off: the picker's accept="image/*" is a hint a user can get around.
  await userEvent.upload(screen.getByLabelText(COPY.account.uploadPhoto), file, { applyAccept: false });
}

describe('Account settings icon and bio', () => {
  it('shows the chosen icon in place of the current one', async () => {
    renderApp(<AccountSettingsPage />, { route: '/settings/account' });
    // The page's own icon and the navigation's: the chosen image replaces the page's.
    const avatars = () => screen.getAllByRole('img', { name: `@${me.username}` }).length;
    const before = avatars();
    await chooseIcon(image());
    expect(screen.getByRole('img', { name: 'Your new icon' })).toBeTruthy();
    expect(avatars()).toBe(before - 1);
  });

  it('refuses an icon that is not an image with the spec message, sends nothing, and keeps the bio', async () => {
    renderApp(<AccountSettingsPage />, { route: '/settings/account' });
    await userEvent.type(screen.getByLabelText(COPY.account.editBio), 'Room 214');
    await chooseIcon(new File(['%PDF'], 'cv.pdf', { type: 'application/pdf' }));
    await userEvent.click(screen.getByRole('button', { name: COPY.account.update }));

    const dialog = await screen.findByRole('dialog', { name: COPY.errorTitle });
    expect(within(dialog).getByText(ERRORS.ICON_INVALID_FILETYPE)).toBeTruthy();
    expect(saves()).toBe(0);
    await userEvent.click(within(dialog).getByRole('button', { name: COPY.cancel }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(screen.getByLabelText<HTMLTextAreaElement>(COPY.account.editBio).value).toBe('Room 214');
  });

  it('counts the bio by characters and refuses one that is too long before sending', async () => {
    renderApp(<AccountSettingsPage />, { route: '/settings/account' });
    // One emoji is two UTF-16 units but one character: the count is the rule's (characters).
    const long = '🙂'.repeat(BIO_MAX_LENGTH + 1);
    await userEvent.click(screen.getByLabelText(COPY.account.editBio));
    await userEvent.paste(long);
    expect(screen.getByText(`${BIO_MAX_LENGTH + 1}/${BIO_MAX_LENGTH}`)).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: COPY.account.update }));

    const dialog = await screen.findByRole('dialog', { name: COPY.errorTitle });
    expect(within(dialog).getByText(ERRORS.BIO_TOO_LONG)).toBeTruthy();
    expect(saves()).toBe(0);
  });

  it('without a chosen icon, sends the bio alone', async () => {
    const bodies: FormData[] = [];
    server.use(
      http.patch('/api/me', async ({ request }) => {
        const form = await request.formData();
        bodies.push(form);
        const bio = form.get('bio');
        return json({ user: { ...me, bio: typeof bio === 'string' ? bio : '' } });
      }),
    );
    renderApp(<AccountSettingsPage />, { route: '/settings/account' });
    await userEvent.type(screen.getByLabelText(COPY.account.editBio), 'Room 214');
    await userEvent.click(screen.getByRole('button', { name: COPY.account.update }));

    expect(await screen.findByRole('dialog', { name: COPY.account.successTitle })).toBeTruthy();
    expect(bodies).toHaveLength(1);
    expect(bodies[0]?.get('bio')).toBe('Room 214');
    expect(bodies[0]?.has('icon')).toBe(false);
  });
});
