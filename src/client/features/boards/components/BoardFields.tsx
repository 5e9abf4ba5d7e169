import { normalizeBoardName, validateBoardDescription, validateBoardName } from '../../../../shared/validation/board';
import { BOARD_COPY } from '../../../../shared/boards-copy';
import { ERRORS } from '../../../../shared/errors';
import field from '../../../ui/field.module.css';
import styles from './BoardFields.module.css';

export interface BoardDraft {
  name: string;
  description: string;
  secret: boolean;
}

/**
 * What is wrong with a draft, by the same shared rules the server applies. `submitted` adds the
 * empty-name message, which would only nag while someone has not typed yet.
 */
export function boardDraftProblems(draft: BoardDraft, submitted: boolean): string[] {
  const problems: string[] = [];
  const name = validateBoardName(normalizeBoardName(draft.name));
  if (name && (submitted || name !== 'BOARD_NAME_REQUIRED')) problems.push(ERRORS[name]);
  const description = validateBoardDescription(draft.description);
  if (description) problems.push(ERRORS[description]);
  return problems;
}

/**
 * A board's name, optional description and Secret switch: the New board forms and the Edit
 * dialog. No maxLength on the inputs: the limits count characters as people do (an emoji is one),
 * which maxLength does not, so the shared check says when it is too long instead.
 */
export function BoardFields({
  id,
  draft,
  onChange,
  withDescription = true,
}: {
  id: string;
  draft: BoardDraft;
  onChange: (draft: BoardDraft) => void;
  withDescription?: boolean;
}) {
  return (
    <div className={styles.fields}>
      <label className={styles.label} htmlFor={`${id}-name`}>
        {BOARD_COPY.name}
      </label>
      <input
        id={`${id}-name`}
        className={field.input}
        value={draft.name}
        autoComplete="off"
        onChange={(event) => onChange({ ...draft, name: event.target.value })}
      />
      {withDescription && (
        <>
          <label className={styles.label} htmlFor={`${id}-description`}>
            {BOARD_COPY.description}
          </label>
          <textarea
            id={`${id}-description`}
            className={`${field.input} ${styles.description}`}
            value={draft.description}
            rows={3}
            onChange={(event) => onChange({ ...draft, description: event.target.value })}
          />
        </>
      )}
      <label className={styles.switch}>
        <input
          type="checkbox"
          role="switch"
          checked={draft.secret}
          aria-describedby={`${id}-secret-hint`}
          onChange={(event) => onChange({ ...draft, secret: event.target.checked })}
        />
        <span className={styles.track} aria-hidden="true" />
        {BOARD_COPY.secret}
      </label>
      <p id={`${id}-secret-hint`} className={styles.hint}>
        {BOARD_COPY.secretHint}
      </p>
    </div>
  );
}
