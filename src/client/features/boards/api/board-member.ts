import { useMutation, useQueryClient } from '@tanstack/react-query';
import { call } from '../../../api/http';
import { boardQueries } from './queries';

export interface MemberChange {
  username: string;
  /** true invites (owner, PUT); false removes a member (owner) or leaves / declines (the member, DELETE). */
  member: boolean;
}

/** Invites, removes, leaves or declines; answers the board's members now. */
export function useSetBoardMember(boardId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ username, member }: MemberChange) =>
      call(member ? 'inviteMember' : 'removeMember', { params: { id: boardId, username } }).then((r) => r.members),
    // Not awaited: leaving or declining moves on at once (a secret board is then a 404 here).
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: boardQueries.all() }),
  });
}
