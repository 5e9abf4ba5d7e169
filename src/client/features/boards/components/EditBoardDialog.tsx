import { useId } from 'react';
import { useNavigate } from '../../../lib/router';
import type { BoardDetail, UpdateBoardBody } from '../../../../shared/api/boards';
import * as COPY from '../../../../shared/copy';
import { BOARD_COPY } from '../../../../shared/boards-copy';
import { normalizeBoardName } from '../../../../shared/validation/board';
import { paths } from '../../../paths';
import { FormErrors } from '../../../ui/FormErrors';
import { PopUp } from '../../../ui/PopUp';
import { useUpdateBoard } from '../api/update-board';
import { BoardFields } from './BoardFields';
import { useBoardDraft } from './use-board-draft';

/**
 * The owner's Edit: name, description, Secret. Only what changed is sent; a new name gives the
 * board a new address, which the page then moves to (the old one no longer answers).
 */
export function EditBoardDialog({ board, onClose }: { board: BoardDetail; onClose: () => void }) {
  const id = useId();
  const navigate = useNavigate();
  const update = useUpdateBoard(board);
  const form = useBoardDraft({ name: board.name, description: board.description, secret: board.secret });
  const { draft } = form;

  const save = () => {
    if (!form.submit()) return;
    const name = normalizeBoardName(draft.name);
    const description = draft.description.trim();
    const body: UpdateBoardBody = {
      ...(name !== board.name && { name }),
      ...(description !== board.description && { description }),
      ...(draft.secret !== board.secret && { secret: draft.secret }),
    };
    if (Object.keys(body).length === 0) return onClose();
    update.mutate(body, {
      onSuccess: (updated) => {
        if (updated.slug !== board.slug) void navigate(paths.board(updated.owner.username, updated.slug), { replace: true });
        onClose();
      },
      onError: form.failed,
    });
  };

  return (
    <PopUp
      title={BOARD_COPY.editTitle}
      loading={update.isPending}
      onCancel={onClose}
      buttons={[
        { label: BOARD_COPY.saveChanges, onClick: save, variant: 'primary' },
        { label: COPY.cancel, onClick: onClose },
      ]}
    >
      <BoardFields id={id} draft={draft} onChange={form.onChange} />
      <FormErrors messages={form.problems} testId="edit-board-errors" />
    </PopUp>
  );
}
