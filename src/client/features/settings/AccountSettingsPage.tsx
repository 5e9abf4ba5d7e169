import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { COPY } from '../../../shared/copy';
import { BIO_MAX_LENGTH, ICON_CONVERT_SIZE, ICON_MAX_BYTES, ICON_QUALITY } from '../../../shared/limits';
import { isImageType } from '../../../shared/validation/post';
import { validateBio } from '../../../shared/validation/profile';
import { errorMessage, Rejected } from '../../lib/rejected';
import { usePreviewUrl } from '../../lib/use-preview-url';
import { compressedName, compressImage } from '../../lib/compress-image';
import { paths } from '../../paths';
import { Avatar } from '../../ui/Avatar';
import button from '../../ui/button.module.css';
import field from '../../ui/field.module.css';
import { Page } from '../../ui/Page';
import { useDocumentTitle } from '../../ui/use-document-title';
import { PopUp } from '../../ui/PopUp';
import { useCurrentUser } from '../../api/current-user';
import styles from './AccountSettingsPage.module.css';
import { useUpdateProfile } from './api/update-profile';

type Status = { step: 'editing' } | { step: 'saving' } | { step: 'done' } | { step: 'failed'; message: string };

/** The spec's icon rules, then compressorjs at the icon settings (quality 0.4, 1,000,000 bytes). */
async function prepareIcon(file: File): Promise<{ blob: Blob; name: string }> {
  if (!isImageType(file.type)) throw new Rejected('ICON_INVALID_FILETYPE');
  let blob: Blob;
  try {
    blob = await compressImage(file, { quality: ICON_QUALITY, convertSize: ICON_CONVERT_SIZE });
  } catch {
    throw new Rejected('ICON_PROCESSING_FAILED');
  }
  if (blob.size > ICON_MAX_BYTES) throw new Rejected('ICON_TOO_LARGE');
  return { blob, name: compressedName(file.name, blob) };
}

export function AccountSettingsPage() {
  const navigate = useNavigate();
  const me = useCurrentUser();
  const update = useUpdateProfile();
  useDocumentTitle(COPY.account.title);
  const [icon, setIcon] = useState<File | null>(null);
  const preview = usePreviewUrl(icon);
  // null until the user types: the box shows the current bio (issue 15), also when it arrives
  // after the first render, and again after a save.
  const [draftBio, setBio] = useState<string | null>(null);
  const bio = draftBio ?? me?.bio ?? '';
  const [status, setStatus] = useState<Status>({ step: 'editing' });

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (status.step === 'saving') return;
    setStatus({ step: 'saving' });
    try {
      if (!me) throw new Rejected('USER_DATA_NOT_FOUND');
      const bioProblem = validateBio(bio);
      if (bioProblem) throw new Rejected(bioProblem);
      const prepared = icon ? await prepareIcon(icon) : null;
      await update.mutateAsync({ icon: prepared, bio });
      setIcon(null);
      setBio(null);
      setStatus({ step: 'done' });
    } catch (error) {
      setStatus({ step: 'failed', message: errorMessage(error) });
    }
  }

  const goHome = () => void navigate(paths.home);
  const closeError = () => setStatus({ step: 'editing' });

  return (
    <Page title={COPY.account.title} back width="column">
      <form className={styles.form} onSubmit={submit}>
        <div className={styles.identity}>
          {preview ? (
            <img src={preview} alt="Your new icon" className={styles.preview} width={96} height={96} />
          ) : (
            <Avatar src={me?.icon ?? null} username={me?.username ?? '?'} size={96} />
          )}
          <p className={styles.handle}>@{me?.username}</p>
          <p className={styles.bio}>{me?.bio || COPY.account.noBio}</p>
        </div>

        <label className={`${button.secondary} ${styles.upload}`}>
          {COPY.account.uploadPhoto}
          <input type="file" accept="image/*" className="visually-hidden" onChange={(e) => setIcon(e.target.files?.[0] ?? null)} />
        </label>

        <label htmlFor="bio" className={styles.label}>
          {COPY.account.editBio}
        </label>
        <textarea
          id="bio"
          className={`${field.input} ${styles.textarea}`}
          placeholder={COPY.account.bioPlaceholder}
          value={bio}
          onChange={(e) => setBio(e.target.value)}
          rows={3}
        />
        <span className={styles.counter} data-over={Array.from(bio).length > BIO_MAX_LENGTH}>
          {Array.from(bio).length}/{BIO_MAX_LENGTH}
        </span>

        <button type="submit" className={button.primary}>
          {COPY.account.update}
        </button>
      </form>

      {status.step === 'saving' && <PopUp title={COPY.account.updatingTitle} message={COPY.account.updatingMessage} loading />}
      {status.step === 'done' && (
        <PopUp
          title={COPY.account.successTitle}
          message={COPY.account.successMessage}
          buttons={[{ label: COPY.home, onClick: goHome }]}
          onCancel={() => setStatus({ step: 'editing' })}
        />
      )}
      {status.step === 'failed' && (
        <PopUp
          title={COPY.errorTitle}
          message={status.message}
          buttons={[
            { label: COPY.home, onClick: goHome },
            { label: COPY.cancel, onClick: closeError, variant: 'secondary' },
          ]}
          onCancel={closeError}
        />
      )}
    </Page>
  );
}
