import { useId, useState } from 'react';
import * as COPY from '../../../shared/copy';
import { MODERATION_NOTE_MAX_LENGTH, SUSPENSION_DAYS } from '../../../shared/moderation';
import { errorMessages } from '../../lib/rejected';
import { FormErrors } from '../../ui/FormErrors';
import { PopUp } from '../../ui/PopUp';
import { useModerationAction, type ModerationAction } from './api/moderation';
import { Choices, TextArea } from './dialog-fields';
import styles from './ReportDialog.module.css';

type Days = (typeof SUSPENSION_DAYS)[number];

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
          <Choices
            legend={COPY.moderation.suspendFor}
            name={`${id}-days`}
            options={SUSPENSION_DAYS.map((length) => ({ value: length, label: COPY.moderation.days(length) }))}
            value={days}
            onChange={setDays}
          />
        )}
        {asked.kind !== 'dismiss' && (
          <TextArea
            id={`${id}-note`}
            label={COPY.moderation.note}
            value={note}
            onChange={setNote}
            maxLength={MODERATION_NOTE_MAX_LENGTH}
            rows={2}
          />
        )}
        <FormErrors messages={problems} testId="moderation-errors" />
      </div>
    </PopUp>
  );
}
