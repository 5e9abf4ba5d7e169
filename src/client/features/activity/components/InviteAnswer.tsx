import { useEffect, useRef, useState } from 'react';
import type { ActivityGroup } from '../../../../shared/api/activity';
import { ACTIVITY_COPY } from '../../../../shared/activity-copy';
import { ERRORS } from '../../../../shared/errors';
import { ApiError } from '../../../api/http';
import { Link } from '../../../lib/router';
import { paths } from '../../../paths';
import button from '../../../ui/button.module.css';
import { FormErrors } from '../../../ui/FormErrors';
import { useJoinBoard, useSetBoardMember } from '../../boards';
import { useInviteAnswered } from '../api/activity';
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

/**
 * An invitation's answer, in its row: Join or Decline while it waits; once joined, the board.
 * The keyboard stays in the list: on the board's link once joined, on the next row once declined.
 */
export function InviteAnswer({ group, board, viewer, describedBy }: InviteAnswerProps) {
  const join = useJoinBoard(board.id);
  const membership = useSetBoardMember(board.id);
  const answered = useInviteAnswered(group);
  const here = useRef<HTMLDivElement>(null);
  const joined = useRef<HTMLParagraphElement>(null);
  const [focusJoined, setFocusJoined] = useState(false);
  useEffect(() => {
    if (focusJoined) joined.current?.querySelector('a')?.focus();
  }, [focusJoined, group.invite]);

  if (group.invite === 'joined') {
    return (
      <p className={styles.joined} ref={joined}>
        {ACTIVITY_COPY.joined}{' '}
        <Link to={paths.board(board.owner, board.slug)} className={styles.boardLink}>
          {board.name}
        </Link>
      </p>
    );
  }
  const onJoin = () =>
    join.mutate(undefined, {
      onSuccess: () => {
        answered('join');
        setFocusJoined(true);
      },
    });
  const onDecline = () => {
    // The row goes: the next one (or the one before) takes the keyboard.
    const row = here.current?.closest('li');
    const neighbour = row?.nextElementSibling ?? row?.previousElementSibling;
    membership.mutate(
      { username: viewer, member: false },
      {
        onSuccess: () => {
          neighbour?.querySelector<HTMLElement>('a, button')?.focus();
          answered('decline');
        },
      },
    );
  };
  const error = join.error ?? membership.error;
  const pending = join.isPending || membership.isPending;
  const problem = error instanceof ApiError ? error.message : error ? ERRORS.GENERIC : null;
  return (
    <div className={styles.answer} ref={here}>
      <div className={styles.buttons}>
        <button type="button" className={button.primary} disabled={pending} aria-describedby={describedBy} onClick={onJoin}>
          {ACTIVITY_COPY.join}
        </button>
        <button type="button" className={button.secondary} disabled={pending} aria-describedby={describedBy} onClick={onDecline}>
          {ACTIVITY_COPY.decline}
        </button>
      </div>
      <FormErrors messages={problem ? [problem] : []} />
    </div>
  );
}
