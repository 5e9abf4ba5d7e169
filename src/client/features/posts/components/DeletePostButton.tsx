import { useState } from 'react';
import { useNavigate } from '../../../lib/router';
import * as COPY from '../../../../shared/copy';
import { APP_NAME } from '../../../app-name';
import { paths } from '../../../paths';
import button from '../../../ui/button.module.css';
import { PopUp } from '../../../ui/PopUp';
import { useDeletePost } from '../api/delete-post';

type Step = 'idle' | 'confirm' | 'deleting' | 'failed';

/** Delete with the spec's confirmation, progress and failure popups; then home. */
export function DeletePostButton({ postId }: { postId: string }) {
  const navigate = useNavigate();
  const deletePost = useDeletePost();
  const [step, setStep] = useState<Step>('idle');
  const goHome = () => void navigate(paths.home, { replace: true });

  const confirm = () => {
    setStep('deleting');
    deletePost.mutate(postId, { onSuccess: goHome, onError: () => setStep('failed') });
  };

  return (
    <>
      <button type="button" className={button.secondary} onClick={() => setStep('confirm')}>
        {COPY.post.delete}
      </button>
      {step === 'confirm' && (
        <PopUp
          title={COPY.post.confirmDeleteTitle}
          message={COPY.post.confirmDeleteMessage(APP_NAME)}
          buttons={[
            { label: COPY.post.delete, onClick: confirm, variant: 'danger' },
            { label: COPY.cancel, onClick: () => setStep('idle'), variant: 'secondary' },
          ]}
          onCancel={() => setStep('idle')}
        />
      )}
      {step === 'deleting' && <PopUp title={COPY.post.deleting} loading />}
      {step === 'failed' && (
        <PopUp
          title={COPY.post.deleteFailedTitle}
          message={COPY.post.deleteFailedMessage}
          buttons={[{ label: COPY.home, onClick: goHome }]}
        />
      )}
    </>
  );
}
