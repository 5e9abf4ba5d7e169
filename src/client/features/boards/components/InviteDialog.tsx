import { useId, useState, type FormEvent } from 'react';
import type { BoardDetail } from '../../../../shared/api/boards';
import * as COPY from '../../../../shared/copy';
import { BOARD_COPY } from '../../../../shared/boards-copy';
import { errorMessages } from '../../../lib/rejected';
import { Avatar } from '../../../ui/Avatar';
import button from '../../../ui/button.module.css';
import { FormErrors } from '../../../ui/FormErrors';
import { PopUp } from '../../../ui/PopUp';
import { TextField } from '../../../ui/TextField';
import { useSetBoardMember } from '../api/board-member';
import styles from './InviteDialog.module.css';
import { useAddressToVerify, VerifyPrompt } from '../../verify-email';

/** The owner's Invite; for an account that must verify its address first, that (issue 29). */
export function InviteDialog({ board, onClose }: { board: BoardDetail; onClose: () => void }) {
  const verifyFirst = useAddressToVerify();
  return verifyFirst ? <VerifyPrompt email={verifyFirst} onClose={onClose} /> : <InviteForm board={board} onClose={onClose} />;
}

/**
 * A username to invite, and the members (joined and invited) each with Remove. The list is the
 * board's, refreshed after every change.
 */
function InviteForm({ board, onClose }: { board: BoardDetail; onClose: () => void }) {
  const id = useId();
  const members = useSetBoardMember(board.id);
  const [username, setUsername] = useState('');
  const [problems, setProblems] = useState<string[]>([]);

  const invite = (event: FormEvent) => {
    event.preventDefault();
    // Usernames are stored lower-case; '@name' as people write it works too.
    const name = username.trim().replace(/^@/, '').toLowerCase();
    if (!name) return;
    setProblems([]);
    members.mutate(
      { username: name, member: true },
      { onSuccess: () => setUsername(''), onError: (error) => setProblems(errorMessages(error)) },
    );
  };
  const remove = (name: string) => {
    setProblems([]);
    members.mutate({ username: name, member: false }, { onError: (error) => setProblems(errorMessages(error)) });
  };

  return (
    <PopUp
      title={BOARD_COPY.inviteTitle}
      message={BOARD_COPY.inviteIntro}
      onCancel={onClose}
      buttons={[{ label: COPY.close, onClick: onClose, variant: 'secondary' }]}
    >
      <div className={styles.body}>
        <form className={styles.form} onSubmit={invite} noValidate>
          <TextField
            id={`${id}-username`}
            label={BOARD_COPY.username}
            value={username}
            autoComplete="off"
            autoCapitalize="none"
            spellCheck={false}
            onChange={(event) => setUsername(event.target.value)}
          />
          <button type="submit" className={button.primary} disabled={members.isPending}>
            {BOARD_COPY.sendInvite}
          </button>
        </form>
        <FormErrors messages={problems} testId="invite-errors" />
        <h3 className={styles.heading}>{BOARD_COPY.collaborators}</h3>
        {board.members.length === 0 ? (
          <p className={styles.none}>{BOARD_COPY.noMembers}</p>
        ) : (
          <ul className={styles.list} aria-label={BOARD_COPY.collaborators}>
            {board.members.map((member) => (
              <li key={member.username} className={styles.member}>
                <Avatar src={member.icon} username={member.username} size={36} />
                <span className={styles.who}>
                  <span className={styles.handle}>@{member.username}</span>
                  {!member.joined && <span className={styles.invited}>{BOARD_COPY.invited}</span>}
                </span>
                <button
                  type="button"
                  className={button.ghost}
                  aria-label={BOARD_COPY.removeMember(member.username)}
                  disabled={members.isPending}
                  onClick={() => remove(member.username)}
                >
                  {BOARD_COPY.remove}
                </button>
              </li>
            ))}
          </ul>
        )}
      </div>
    </PopUp>
  );
}
