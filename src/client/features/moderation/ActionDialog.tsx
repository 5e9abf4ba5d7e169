import { useId, useState } from 'react';
import { COPY } from '../../../shared/copy';
import { SUSPENSION_DAYS } from '../../../shared/moderation';
import { errorMessages } from '../../lib/rejected';
import field from '../../ui/field.module.css';
import { FormErrors } from '../../ui/FormErrors';
import { PopUp } from '../../ui/PopUp';
import { useModerationAction, type ModerationAction } from './api/moderation';
import styles from './ReportDialog.module.css';

type Days = (typeof SUSPENSION_DAYS)[number];
const NOTE_MAX_LENGTH = 500;

/** What a moderator is about to do from the queue or People, asked first. */
export type Asked =
  | { kind: 'remove-post'; postId: string }
  | { kind: 'suspend'; target: { postId: string } | { username: string }; username: string }
  | { kind: 'dismiss'; target: { postId: string } | { username: string } };

/**
 * The confirmation of a moderation action, with its optional note (and a suspension's length).
 * Closes when done; a refusal (another moderator was quicker, not allowed) is shown in it.
 */
export function ActionDialog({ asked, onClose }: { asked: Asked; onClose: () => void }) {
  const action = useModerationAction();
  const id = useId();
  const [days, setDays] = useState<Days>(7);
  const [note, setNote] = useState('');
  const [problems, setProblems] = useState<string[]>([]);

  const confirm = () => {
    const trimmed = note.trim();
    const chosen: ModerationAction =
      asked.kind === 'remove-post'
        ? { kind: 'remove-post', postId: asked.postId, note: trimmed }
        : asked.kind === 'suspend'
          ? { kind: 'suspend', target: asked.target, days, note: trimmed }
          : { kind: 'dismiss', target: asked.target };
    action.mutate(chosen, { onSuccess: onClose, onError: (error) => setProblems(errorMessages(error)) });
  };

  const [title, message, label] =
    asked.kind === 'remove-post'
      ? [COPY.moderation.removeTitle, COPY.moderation.removeMessage, COPY.moderation.removePost]
      : asked.kind === 'suspend'
        ? [COPY.moderation.suspendTitle(asked.username), COPY.moderation.suspendMessage, COPY.moderation.suspend]
        : [COPY.moderation.dismissTitle, COPY.moderation.dismissMessage, COPY.moderation.dismiss];

  return (
    <PopUp
      title={title}
      message={message}
      loading={action.isPending}
      onCancel={onClose}
      buttons={[
        { label, onClick: confirm, variant: asked.kind === 'dismiss' ? 'primary' : 'danger' },
        { label: COPY.cancel, onClick: onClose },
      ]}
    >
      <div className={styles.form}>
        {asked.kind === 'suspend' && (
          <fieldset className={styles.reasons}>
            <legend className={styles.legend}>{COPY.moderation.suspendFor}</legend>
            {SUSPENSION_DAYS.map((length) => (
              <label key={String(length)} className={styles.reason}>
                <input type="radio" name={`${id}-days`} checked={days === length} onChange={() => setDays(length)} />
                {COPY.moderation.days(length)}
              </label>
            ))}
          </fieldset>
        )}
        {asked.kind !== 'dismiss' && (
          <>
            <label className={styles.detailsLabel} htmlFor={`${id}-note`}>
              {COPY.moderation.note}
            </label>
            <textarea
              id={`${id}-note`}
              className={`${field.input} ${styles.details}`}
              value={note}
              maxLength={NOTE_MAX_LENGTH}
              rows={2}
              onChange={(event) => setNote(event.target.value)}
            />
          </>
        )}
        <FormErrors messages={problems} testId="moderation-errors" />
      </div>
    </PopUp>
  );
}
