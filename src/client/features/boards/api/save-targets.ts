import { useQuery } from '@tanstack/react-query';
import type { SaveTargets } from '../../../../shared/api/boards';
import { API } from '../../../../shared/api/paths';
import { api } from '../../../api/http';
import { saveTargetsKey } from './keys';

/**
 * The Save picker's boards for one post (GET /api/me/boards?post=): the viewer's own and joined
 * boards, most recently used first, each with whether the post is on it. Signed in only.
 */
export function useSaveTargets(postId: string, enabled = true) {
  return useQuery({
    queryKey: saveTargetsKey(postId),
    queryFn: () => api<SaveTargets>('GET', API.saveTargets(postId)).then((r) => r.boards),
    enabled,
  });
}
