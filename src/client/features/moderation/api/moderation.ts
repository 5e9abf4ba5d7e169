import { infiniteQueryOptions, queryOptions, useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ReportBody } from '../../../../shared/api/moderation';
import type { Role } from '../../../../shared/moderation';
import { cursorQuery } from '../../../api/cursor';
import { call, ApiError } from '../../../api/http';
import { postQueries } from '../../posts';
import { profileQueries } from '../../people';

/** Report someone else's post or profile (issue 17). */
export function useReport() {
  return useMutation({ mutationFn: (body: ReportBody) => call('report', { body }) });
}

/** The staff lists come a page at a time, each naming the next page's cursor. */
const pages = {
  initialPageParam: null as string | null,
  getNextPageParam: (page: { nextCursor: string | null }) => page.nextCursor,
};

/** The moderation feature's queries: staff lists, one person's record, and (admins) invite codes. */
export const moderationQueries = {
  all: () => ['moderation'] as const,
  queue: () =>
    infiniteQueryOptions({
      queryKey: [...moderationQueries.all(), 'queue'],
      queryFn: ({ pageParam }) => call('moderationQueue', { query: cursorQuery(pageParam) }),
      ...pages,
    }),
  log: () =>
    infiniteQueryOptions({
      queryKey: [...moderationQueries.all(), 'log'],
      queryFn: ({ pageParam }) => call('moderationLog', { query: cursorQuery(pageParam) }),
      ...pages,
    }),
  suspended: () =>
    infiniteQueryOptions({
      queryKey: [...moderationQueries.all(), 'suspended'],
      queryFn: ({ pageParam }) => call('moderationSuspended', { query: cursorQuery(pageParam) }),
      ...pages,
    }),
  person: (username: string) =>
    queryOptions({
      queryKey: [...moderationQueries.all(), 'person', username],
      queryFn: () => call('moderationPerson', { params: { username } }).then((r) => r.user),
      enabled: username !== '',
      retry: false,
    }),
  /** The invite codes that still work (admins; a 404 for anyone else). */
  invites: () =>
    queryOptions({
      queryKey: ['invites'],
      queryFn: () => call('invites').then((r) => r.invites),
      // A 404 is the answer (not an admin), not a hiccup to retry.
      retry: (count, error) => !(error instanceof ApiError && error.status === 404) && count < 2,
    }),
};

export const useQueue = () => useInfiniteQuery(moderationQueries.queue());
export const useModerationLog = () => useInfiniteQuery(moderationQueries.log());
export const useSuspended = () => useInfiniteQuery(moderationQueries.suspended());
export const usePerson = (username: string) => useQuery(moderationQueries.person(username));

export type ModerationAction =
  | { kind: 'remove-post'; postId: string; note?: string }
  | { kind: 'suspend'; target: { postId: string } | { username: string }; days: 1 | 7 | 30 | null; note?: string }
  | { kind: 'dismiss'; target: { postId: string } | { username: string } }
  | { kind: 'unsuspend'; username: string }
  | { kind: 'role'; username: string; role: Role }
  | { kind: 'verify-email'; username: string };

function send(action: ModerationAction): Promise<unknown> {
  switch (action.kind) {
    case 'remove-post':
      return call('moderationRemovePost', { body: { postId: action.postId, ...(action.note && { note: action.note }) } });
    case 'suspend':
      return call('moderationSuspend', { body: { ...action.target, days: action.days, ...(action.note && { note: action.note }) } });
    case 'dismiss':
      return call('moderationDismiss', { body: action.target });
    case 'unsuspend':
      return call('moderationUnsuspend', { body: { username: action.username } });
    case 'role':
      return call('moderationRole', { params: { username: action.username }, body: { role: action.role } });
    case 'verify-email':
      return call('moderationVerifyEmail', { params: { username: action.username } });
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
