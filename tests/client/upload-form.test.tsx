// @vitest-environment happy-dom
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { UploadPage } from '../../src/client/features/upload/UploadPage';
import * as COPY from '../../src/shared/copy';
import { ERRORS } from '../../src/shared/errors';
import { DESCRIPTION_MAX_LENGTH } from '../../src/shared/limits';
import { renderApp, requests } from './harness';

const posted = () => requests.filter((request) => request === 'POST /api/posts').length;

async function choose(file: File) {
  await userEvent.upload(screen.getByLabelText(COPY.upload.choosePhoto), file);
}

describe('Upload form', () => {
  it('does nothing without a photo', async () => {
    renderApp(<UploadPage />, { route: '/upload' });
    await userEvent.click(screen.getByRole('button', { name: COPY.upload.post }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(posted()).toBe(0);
  });

  it('refuses a file that is not an image, sends nothing, and keeps the form as it was', async () => {
    renderApp(<UploadPage />, { route: '/upload' });
    await userEvent.type(screen.getByLabelText(COPY.upload.descriptionLabel), 'My desk #dorm');
    // applyAccept off: the picker's accept="image/*" is a hint a user can get around.
    await userEvent.upload(screen.getByLabelText(COPY.upload.choosePhoto), new File(['%PDF'], 'notes.pdf', { type: 'application/pdf' }), {
      applyAccept: false,
    });
    await userEvent.click(screen.getByRole('button', { name: COPY.upload.post }));

    const dialog = await screen.findByRole('dialog', { name: COPY.errorTitle });
    expect(within(dialog).getByText(ERRORS.INVALID_FILETYPE)).toBeTruthy();
    expect(posted()).toBe(0);
    await userEvent.click(within(dialog).getByRole('button', { name: COPY.close }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(screen.getByLabelText<HTMLTextAreaElement>(COPY.upload.descriptionLabel).value).toBe('My desk #dorm');
  });

  it('counts the description and refuses one that is too long before compressing or sending', async () => {
    renderApp(<UploadPage />, { route: '/upload' });
    const long = 'a'.repeat(DESCRIPTION_MAX_LENGTH + 1);
    const field = screen.getByLabelText(COPY.upload.descriptionLabel);
    await userEvent.click(field);
    await userEvent.paste(long);
    expect(screen.getByText(`${long.length}/${DESCRIPTION_MAX_LENGTH}`)).toBeTruthy();
    await choose(new File([new Uint8Array([0xff, 0xd8, 0xff])], 'desk.jpg', { type: 'image/jpeg' }));
    expect(screen.getByRole('img', { name: 'What you chose to post' })).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: COPY.upload.post }));

    const dialog = await screen.findByRole('dialog', { name: COPY.errorTitle });
    expect(within(dialog).getByText(ERRORS.DESCRIPTION_TOO_LONG)).toBeTruthy();
    expect(posted()).toBe(0);
  });

  it('shows no picture once a chooser comes back empty, as no photo is chosen then', async () => {
    renderApp(<UploadPage />, { route: '/upload' });
    await choose(new File([new Uint8Array([0xff, 0xd8, 0xff])], 'desk.jpg', { type: 'image/jpeg' }));
    expect(screen.getByRole('img', { name: 'What you chose to post' })).toBeTruthy();
    // A browser's chooser cancelled after a choice fires change with no files.
    await userEvent.upload(screen.getByLabelText(COPY.upload.changePhoto), []);
    expect(screen.queryByRole('img', { name: 'What you chose to post' })).toBeNull();
    expect(screen.getByLabelText(COPY.upload.choosePhoto)).toBeTruthy();
  });
});
