import { useState, type FormEvent } from 'react';
import { useNavigate } from '../../lib/router';
import * as COPY from '../../../shared/copy';
import { BIO_MAX_LENGTH } from '../../../shared/limits';
import { validateBio } from '../../../shared/validation/profile';
import { errorMessage, Rejected } from '../../lib/rejected';
import { prepareImage, PROFILE_ICON } from '../../lib/prepare-image';
import { useImageChoice } from '../../lib/use-image-choice';
import { paths } from '../../paths';
import { Avatar } from '../../ui/Avatar';
import button from '../../ui/button.module.css';
import { CountedTextArea } from '../../ui/CountedTextArea';
import { FailedPopUp } from '../../ui/FailedPopUp';
import { ImagePicker } from '../../ui/ImagePicker';
import { Page } from '../../ui/Page';
import { useDocumentTitle } from '../../ui/use-document-title';
import { PopUp } from '../../ui/PopUp';
import { useCurrentUser } from '../../api/current-user';
import styles from './AccountSettingsPage.module.css';
import { useUpdateProfile } from './api/update-profile';

type Status = { step: 'editing' } | { step: 'saving' } | { step: 'done' } | { step: 'failed'; message: string };

export function AccountSettingsPage() {
  const navigate = useNavigate();
  const me = useCurrentUser();
  const update = useUpdateProfile();
  useDocumentTitle(COPY.account.title);
  const iconChoice = useImageChoice();
  const { file: icon, preview } = iconChoice;
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
      const prepared = icon ? await prepareImage(icon, PROFILE_ICON) : null;
      await update.mutateAsync({ icon: prepared, bio });
      iconChoice.clear();
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

        <ImagePicker className={`${button.secondary} ${styles.upload}`} onChoose={iconChoice.choose}>
          {COPY.account.uploadPhoto}
        </ImagePicker>

        <CountedTextArea
          id="bio"
          label={COPY.account.editBio}
          length={Array.from(bio).length}
          max={BIO_MAX_LENGTH}
          styles={styles}
          placeholder={COPY.account.bioPlaceholder}
          value={bio}
          onChange={(e) => setBio(e.target.value)}
          rows={3}
        />

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
      {status.step === 'failed' && <FailedPopUp message={status.message} backLabel={COPY.cancel} onBack={closeError} />}
    </Page>
  );
}
