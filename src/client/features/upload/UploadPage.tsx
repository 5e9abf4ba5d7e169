import { useState, type FormEvent } from 'react';
import { useNavigate } from '../../lib/router';
import * as COPY from '../../../shared/copy';
import { DESCRIPTION_MAX_LENGTH } from '../../../shared/limits';
import { validatePostText } from '../../../shared/validation/post';
import { newFormKey } from '../../lib/form-key';
import { errorMessage, Rejected } from '../../lib/rejected';
import { checkImageType, compressWithinLimit, POST_PHOTO } from '../../lib/prepare-image';
import { useImageChoice } from '../../lib/use-image-choice';
import { paths } from '../../paths';
import button from '../../ui/button.module.css';
import field from '../../ui/field.module.css';
import { CountedTextArea } from '../../ui/CountedTextArea';
import { FailedPopUp } from '../../ui/FailedPopUp';
import { ImagePicker } from '../../ui/ImagePicker';
import { Page } from '../../ui/Page';
import { PopUp } from '../../ui/PopUp';
import { useDocumentTitle } from '../../ui/use-document-title';
import { useCurrentUser } from '../../api/current-user';
import { useCreatePost } from '../posts';
import styles from './UploadPage.module.css';
import { useAddressToVerify, VerifyNotice } from '../verify-email';

type Status = { step: 'editing' } | { step: 'uploading' } | { step: 'done'; postId: string } | { step: 'failed'; message: string };

export function UploadPage() {
  const navigate = useNavigate();
  useDocumentTitle(COPY.upload.title);
  const user = useCurrentUser();
  // Issue 29: an account that must verify its address posts once it has.
  const verifyFirst = useAddressToVerify();
  const createPost = useCreatePost();
  const photoChoice = useImageChoice();
  const { file: photo, preview } = photoChoice;
  const [description, setDescription] = useState('');
  const [link, setLink] = useState('');
  const [status, setStatus] = useState<Status>({ step: 'editing' });
  // One key per form: sent twice (a double tap, a retry after a lost answer), it is one post.
  const [formKey, setFormKey] = useState(newFormKey);

  /** The spec's checks, in its order, then compression; throws Rejected with the code. */
  async function prepare(file: File) {
    checkImageType(file, POST_PHOTO);
    const textProblem = validatePostText({ description, link: link.trim() });
    if (textProblem) throw new Rejected(textProblem);
    const compressed = await compressWithinLimit(file, POST_PHOTO);
    if (!user) throw new Rejected('USER_DATA_NOT_FOUND');
    return compressed;
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    // No photo chosen: nothing happens (spec section 4).
    if (!photo || status.step === 'uploading') return;
    setStatus({ step: 'uploading' });
    try {
      const compressed = await prepare(photo);
      const post = await createPost.mutateAsync({
        photo: compressed.blob,
        fileName: compressed.name,
        description,
        link: link.trim(),
        idempotencyKey: formKey,
      });
      // Posted: whatever this form sends next is a new post.
      setFormKey(newFormKey());
      setStatus({ step: 'done', postId: post.id });
    } catch (error) {
      setStatus({ step: 'failed', message: errorMessage(error) });
    }
  }

  const goHome = () => void navigate(paths.home);
  // Back to the form as it was: the photo, description and link are still in their state.
  const backToForm = () => setStatus({ step: 'editing' });

  return (
    <Page title={COPY.upload.title} width="form">
      {verifyFirst ? (
        <VerifyNotice email={verifyFirst} />
      ) : (
        <form className={styles.form} onSubmit={submit}>
          <ImagePicker
            className={styles.picker}
            data-has-photo={Boolean(preview)}
            inputLabel={preview ? COPY.upload.changePhoto : COPY.upload.choosePhoto}
            onChoose={photoChoice.choose}
          >
            {preview ? (
              <img src={preview} alt="What you chose to post" className={styles.preview} />
            ) : (
              <span className={styles.pickerText}>{COPY.upload.choosePhoto}</span>
            )}
          </ImagePicker>

          <div className={styles.fields}>
            <CountedTextArea
              id="description"
              label={COPY.upload.descriptionLabel}
              length={description.length}
              max={DESCRIPTION_MAX_LENGTH}
              announceCount
              styles={styles}
              placeholder={COPY.upload.descriptionPlaceholder}
              value={description}
              onChange={(e) => setDescription(e.target.value)}
              rows={4}
            />

            <label htmlFor="link" className={styles.label}>
              {COPY.upload.linkLabel}
            </label>
            <input
              id="link"
              type="url"
              inputMode="url"
              className={field.input}
              // Spec: placeholder '{host}', the bare host of this site (e.g. localhost:3000).
              placeholder={window.location.host}
              value={link}
              onChange={(e) => setLink(e.target.value)}
            />

            <button type="submit" className={`${button.primary} ${styles.submit}`}>
              {COPY.upload.post}
            </button>
          </div>
        </form>
      )}

      {status.step === 'uploading' && <PopUp title={COPY.upload.uploadingTitle} message={COPY.upload.uploadingMessage} loading />}
      {status.step === 'done' && (
        <PopUp
          title={COPY.upload.successTitle}
          message={COPY.upload.successMessage}
          buttons={[
            { label: COPY.home, onClick: goHome },
            { label: COPY.upload.viewPost, onClick: () => void navigate(paths.post(status.postId)) },
          ]}
        />
      )}
      {status.step === 'failed' && <FailedPopUp message={status.message} backLabel={COPY.close} onBack={backToForm} />}
    </Page>
  );
}
