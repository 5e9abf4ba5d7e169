import { useId } from 'react';
import type { ActivityGroup } from '../../../../shared/api/activity';
import { ACTIVITY_COPY, activityLink, activityText } from '../../../../shared/activity-copy';
import { timeAgo } from '../../../lib/relative-time';
import { Link } from '../../../lib/router';
import { Avatar } from '../../../ui/Avatar';
import { ShieldIcon } from '../../../ui/icons';
import styles from './ActivityRow.module.css';
import { InviteAnswer } from './InviteAnswer';

/** Who did it: the newest actor's picture, or a shield for the moderators, who act unnamed. */
function Actor({ group }: { group: ActivityGroup }) {
  const actor = group.actors[0];
  // Decorative: the sentence names them.
  return (
    <span className={styles.picture} aria-hidden="true">
      {actor ? (
        <Avatar src={actor.icon} username={actor.username} size={44} />
      ) : (
        <span className={styles.moderators}>
          <ShieldIcon />
        </span>
      )}
    </span>
  );
}

/** The row's words: the marker, the picture, the sentence (text, never markup), when, and the post's picture. */
function Summary({ group, textId }: { group: ActivityGroup; textId: string }) {
  const thumbnail = group.post?.thumbnail;
  return (
    <>
      <span className={styles.marker}>{group.unread && <span className="visually-hidden">{ACTIVITY_COPY.unread}</span>}</span>
      <Actor group={group} />
      <span className={styles.words}>
        <span className={styles.text} id={textId}>
          {activityText(group)}
        </span>
        <time className={styles.time} dateTime={group.at}>
          {timeAgo(new Date(group.at))}
        </time>
      </span>
      {thumbnail && <img className={styles.thumbnail} src={thumbnail} alt="" width={48} height={48} loading="lazy" decoding="async" />}
    </>
  );
}

interface ActivityRowProps {
  group: ActivityGroup;
  /** The signed-in user: where "your followers" are, and who answers an invitation. */
  viewer: string;
  /** Opening the row: its group is read. */
  onOpen: (group: ActivityGroup) => void;
}

/**
 * One group of /activity (issue 30). The whole row leads where the notification is about; an
 * invitation still waiting has Join and Decline under it (buttons cannot sit inside a link).
 */
export function ActivityRow({ group, viewer, onOpen }: ActivityRowProps) {
  const to = activityLink(group, viewer);
  const textId = useId();
  return (
    <li className={styles.item} data-unread={group.unread}>
      {to ? (
        <Link to={to} className={styles.row} onClick={() => onOpen(group)}>
          <Summary group={group} textId={textId} />
        </Link>
      ) : (
        <div className={styles.row}>
          <Summary group={group} textId={textId} />
        </div>
      )}
      {group.kind === 'board_invite' && group.board && group.invite && (
        <InviteAnswer group={group} board={group.board} viewer={viewer} describedBy={textId} />
      )}
    </li>
  );
}
