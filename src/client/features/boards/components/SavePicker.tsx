import { useQuery } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import type { SaveTarget } from '../../../../shared/api/boards';
import * as COPY from '../../../../shared/copy';
import { BOARD_COPY } from '../../../../shared/boards-copy';
import { normalizeBoardName } from '../../../../shared/validation/board';
import { errorMessages } from '../../../lib/rejected';
import button from '../../../ui/button.module.css';
import { FormErrors } from '../../../ui/FormErrors';
import { PlusIcon } from '../../../ui/icons';
import { PopUp } from '../../../ui/PopUp';
import { Skeleton, SkeletonRows } from '../../../ui/Skeleton';
import { useSetBoardPost } from '../api/board-post';
import { useCreateBoard } from '../api/create-board';
import { boardQueries } from '../api/queries';
import { BoardCover, SecretMark } from './BoardCover';
import { BoardFields } from './BoardFields';
import { useBoardDraft } from './use-board-draft';
import styles from './SavePicker.module.css';

/** New board, at the top of the picker: a name and Secret; creating it saves the post there. */
function NewBoardForm({ postId, onSaved }: { postId: string; onSaved: () => void }) {
  const id = useId();
  const [open, setOpen] = useState(false);
  const draftForm = useBoardDraft();
  const { draft } = draftForm;
  const createBoard = useCreateBoard();
  const setBoardPost = useSetBoardPost();
  const form = useRef<HTMLFormElement>(null);

  const toggle = useRef<HTMLButtonElement>(null);
  const opened = useRef(false);
  const focusName = () => form.current?.querySelector('input')?.focus();
  // Opening the form puts the cursor in its name field; Cancel hands focus back to New board.
  useEffect(() => {
    if (open) focusName();
    else if (opened.current) toggle.current?.focus();
    opened.current = open;
  }, [open]);

  const busy = createBoard.isPending || setBoardPost.isPending;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    // The name is what is wrong (or too long): back to it, with the message read out.
    if (!draftForm.submit()) return focusName();
    try {
      const board = await createBoard.mutateAsync({ name: normalizeBoardName(draft.name), secret: draft.secret });
      await setBoardPost.mutateAsync({ boardId: board.id, postId, saved: true });
      onSaved();
    } catch (error) {
      draftForm.failed(error);
    }
  };

  if (!open) {
    return (
      <button ref={toggle} type="button" className={`${button.secondary} ${styles.newBoard}`} onClick={() => setOpen(true)}>
        <PlusIcon />
        {BOARD_COPY.newBoard}
      </button>
    );
  }
  return (
    <form ref={form} className={styles.form} aria-labelledby={`${id}-title`} onSubmit={(event) => void submit(event)} noValidate>
      <div className={styles.formHead}>
        <h3 id={`${id}-title`} className={styles.formTitle}>
          {BOARD_COPY.newBoard}
        </h3>
        <button type="button" className={button.ghost} onClick={() => setOpen(false)}>
          {COPY.cancel}
        </button>
      </div>
      <BoardFields id={id} draft={draft} withDescription={false} onChange={draftForm.onChange} />
      <FormErrors messages={draftForm.problems} testId="new-board-errors" />
      <button type="submit" className={button.primary} disabled={busy}>
        {BOARD_COPY.create}
      </button>
    </form>
  );
}

function BoardRow({ board, disabled, onChoose }: { board: SaveTarget; disabled: boolean; onChoose: () => void }) {
  return (
    <li>
      <button type="button" className={styles.row} aria-pressed={board.hasPost} disabled={disabled} onClick={onChoose}>
        <BoardCover cover={board.cover} alt="" sizes="48px" className={styles.thumb} />
        <span className={styles.text}>
          <span className={styles.name}>{board.name}</span>
          {board.secret && <SecretMark label={BOARD_COPY.secretBadge} />}
        </span>
        {board.hasPost && <span className={styles.savedHere}>{BOARD_COPY.savedHere}</span>}
      </button>
    </li>
  );
}

/**
 * The Save picker: New board at the top, then your boards (own and joined), most recently used
 * first. A tap on a board saves the post there, or, where it is already saved, removes it; then
 * the picker closes and the Save button (which keeps focus) tells what happened.
 */
export function SavePicker({ postId, onClose }: { postId: string; onClose: () => void }) {
  const targets = useQuery(boardQueries.saveTargets(postId));
  const setBoardPost = useSetBoardPost();
  const [problems, setProblems] = useState<string[]>([]);

  const choose = (board: SaveTarget) => {
    setProblems([]);
    setBoardPost.mutate(
      { boardId: board.id, postId, saved: !board.hasPost },
      { onSuccess: onClose, onError: (error) => setProblems(errorMessages(error)) },
    );
  };

  return (
    <PopUp title={BOARD_COPY.pickerTitle} onCancel={onClose} buttons={[{ label: COPY.close, onClick: onClose, variant: 'secondary' }]}>
      <div className={styles.picker}>
        <NewBoardForm postId={postId} onSaved={onClose} />
        {targets.isPending ? (
          <Skeleton label="Loading your boards">
            <SkeletonRows count={3} />
          </Skeleton>
        ) : targets.isError ? (
          <p className={styles.note}>{BOARD_COPY.pickerLoadFailed}</p>
        ) : targets.data.length === 0 ? (
          <p className={styles.note}>{BOARD_COPY.noBoards}</p>
        ) : (
          <ul className={styles.list} aria-label={BOARD_COPY.boardsTab}>
            {targets.data.map((board) => (
              <BoardRow key={board.id} board={board} disabled={setBoardPost.isPending} onChoose={() => choose(board)} />
            ))}
          </ul>
        )}
        <FormErrors messages={problems} testId="save-errors" />
      </div>
    </PopUp>
  );
}
