import { infiniteQueryOptions, queryOptions, useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { InviteList } from '../../../../shared/api/invites';
import type { LogResponse, PersonResponse, QueueResponse, ReportBody, SuspendedResponse } from '../../../../shared/api/moderation';
import { API } from '../../../../shared/api/paths';
import type { Role } from '../../../../shared/moderation';
import { api, ApiError } from '../../../api/http';
import { postQueries } from '../../posts';
import { profileQueries } from '../../people';

const withCursor = (path: string, cursor: string | null) => (cursor ? `${path}?cursor=${encodeURIComponent(cursor)}` : path);

/** Report someone else's post or profile (issue 17). */
export function useReport() {
  return useMutation({ mutationFn: (body: ReportBody) => api<void>('POST', API.reports, body) });
}

/** The moderation feature's queries: staff lists, one person's record, and (admins) invite codes. */
export const moderationQueries = {
  all: () => ['moderation'] as const,
  list: <T extends { nextCursor: string | null }>(name: 'queue' | 'log' | 'suspended', path: string) =>
    infiniteQueryOptions({
      queryKey: [...moderationQueries.all(), name],
      queryFn: ({ pageParam }) => api<T>('GET', withCursor(path, pageParam)),
      initialPageParam: null as string | null,
      getNextPageParam: (page) => page.nextCursor,
    }),
  person: (username: string) =>
    queryOptions({
      queryKey: [...moderationQueries.all(), 'person', username],
      queryFn: () => api<PersonResponse>('GET', API.moderationPerson(username)).then((r) => r.user),
      enabled: username !== '',
      retry: false,
    }),
  /** The invite codes that still work (admins; a 404 for anyone else). */
  invites: () =>
    queryOptions({
      queryKey: ['invites'],
      queryFn: () => api<InviteList>('GET', API.invites).then((r) => r.invites),
      // A 404 is the answer (not an admin), not a hiccup to retry.
      retry: (count, error) => !(error instanceof ApiError && error.status === 404) && count < 2,
    }),
};

export const useQueue = () => useInfiniteQuery(moderationQueries.list<QueueResponse>('queue', API.moderationQueue));
export const useModerationLog = () => useInfiniteQuery(moderationQueries.list<LogResponse>('log', API.moderationLog));
export const useSuspended = () => useInfiniteQuery(moderationQueries.list<SuspendedResponse>('suspended', API.moderationSuspended));
export const usePerson = (username: string) => useQuery(moderationQueries.person(username));

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
      void queryClient.invalidateQueries({ queryKey: moderationQueries.all() });
      void queryClient.invalidateQueries({ queryKey: postQueries.all() });
      void queryClient.invalidateQueries({ queryKey: profileQueries.all() });
    },
  });
}
