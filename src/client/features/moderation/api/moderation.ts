import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { LogResponse, PersonResponse, QueueResponse, ReportBody, SuspendedResponse } from '../../../../shared/api/moderation';
import { API } from '../../../../shared/api/paths';
import type { Role } from '../../../../shared/moderation';
import { api } from '../../../api/http';

const withCursor = (path: string, cursor: string | null) => (cursor ? `${path}?cursor=${encodeURIComponent(cursor)}` : path);

/** Report someone else's post or profile (issue 17). */
export function useReport() {
  return useMutation({ mutationFn: (body: ReportBody) => api<void>('POST', API.reports, body) });
}

const MODERATION_KEY = ['moderation'] as const;

function usePaged<T extends { nextCursor: string | null }>(name: string, path: string) {
  return useInfiniteQuery({
    queryKey: [...MODERATION_KEY, name],
    queryFn: ({ pageParam }) => api<T>('GET', withCursor(path, pageParam)),
    initialPageParam: null as string | null,
    getNextPageParam: (page) => page.nextCursor,
  });
}

export const useQueue = () => usePaged<QueueResponse>('queue', API.moderationQueue);
export const useModerationLog = () => usePaged<LogResponse>('log', API.moderationLog);
export const useSuspended = () => usePaged<SuspendedResponse>('suspended', API.moderationSuspended);

export function usePerson(username: string) {
  return useQuery({
    queryKey: [...MODERATION_KEY, 'person', username],
    queryFn: () => api<PersonResponse>('GET', API.moderationPerson(username)).then((r) => r.user),
    enabled: username !== '',
    retry: false,
  });
}

export type ModerationAction =
  | { kind: 'remove-post'; postId: string; note?: string }
  | { kind: 'suspend'; target: { postId: string } | { username: string }; days: 1 | 7 | 30 | null; note?: string }
  | { kind: 'dismiss'; target: { postId: string } | { username: string } }
  | { kind: 'unsuspend'; username: string }
  | { kind: 'role'; username: string; role: Role };

function send(action: ModerationAction): Promise<unknown> {
  switch (action.kind) {
    case 'remove-post':
      return api('POST', API.moderationRemovePost, { postId: action.postId, ...(action.note && { note: action.note }) });
    case 'suspend':
      return api('POST', API.moderationSuspend, { ...action.target, days: action.days, ...(action.note && { note: action.note }) });
    case 'dismiss':
      return api('POST', API.moderationDismiss, action.target);
    case 'unsuspend':
      return api('POST', API.moderationUnsuspend, { username: action.username });
    case 'role':
      return api('PUT', API.moderationRole(action.username), { role: action.role });
  }
}

/** Any moderation action; afterwards every moderation list (and any post or profile shown) is read again. */
export function useModerationAction() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: send,
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: MODERATION_KEY });
      void queryClient.invalidateQueries({ queryKey: ['post'] });
      void queryClient.invalidateQueries({ queryKey: ['profile'] });
    },
  });
}
