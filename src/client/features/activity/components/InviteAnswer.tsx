import type { ActivityGroup } from '../../../../shared/api/activity';
import { ACTIVITY_COPY } from '../../../../shared/activity-copy';
import { ERRORS } from '../../../../shared/errors';
import { ApiError } from '../../../api/http';
import { Link } from '../../../lib/router';
import { paths } from '../../../paths';
import button from '../../../ui/button.module.css';
import { FormErrors } from '../../../ui/FormErrors';
import { useAnswerInvite } from '../api/activity';
import styles from './ActivityRow.module.css';

type Board = NonNullable<ActivityGroup['board']>;

interface InviteAnswerProps {
  group: ActivityGroup;
  board: Board;
  /** Who answers: the signed-in user. */
  viewer: string;
  /** The row's sentence, so each Join and Decline says which invitation it answers. */
  describedBy: string;
}

/** An invitation's answer, in its row: Join or Decline while it waits; once joined, the board. */
export function InviteAnswer({ group, board, viewer, describedBy }: InviteAnswerProps) {
  const answer = useAnswerInvite(group, viewer);
  if (group.invite === 'joined') {
    return (
      <p className={styles.joined}>
        {ACTIVITY_COPY.joined}{' '}
        <Link to={paths.board(board.owner, board.slug)} className={styles.boardLink}>
          {board.name}
        </Link>
      </p>
    );
  }
  const problem = answer.error instanceof ApiError ? answer.error.message : answer.error ? ERRORS.GENERIC : null;
  return (
    <div className={styles.answer}>
      <div className={styles.buttons}>
        <button
          type="button"
          className={button.primary}
          disabled={answer.isPending}
          aria-describedby={describedBy}
          onClick={() => answer.mutate('join')}
        >
          {ACTIVITY_COPY.join}
        </button>
        <button
          type="button"
          className={button.secondary}
          disabled={answer.isPending}
          aria-describedby={describedBy}
          onClick={() => answer.mutate('decline')}
        >
          {ACTIVITY_COPY.decline}
        </button>
      </div>
      <FormErrors messages={problem ? [problem] : []} />
    </div>
  );
}
