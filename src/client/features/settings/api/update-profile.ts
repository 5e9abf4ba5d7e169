import { useMutation, useQueryClient } from '@tanstack/react-query';
import { call } from '../../../api/http';
import { setCurrentUser } from '../../../api/current-user';
import { profileQueries } from '../../people';

/** Icon and bio go together in one request (PATCH /api/me). */
export function useUpdateProfile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ icon, bio }: { icon: { blob: Blob; name: string } | null; bio: string }) => {
      const form = new FormData();
      if (bio.trim()) form.set('bio', bio);
      if (icon) form.set('icon', icon.blob, icon.name);
      return call('updateMe', { body: form }).then((r) => r.user);
    },
    onSuccess: (user) => {
      setCurrentUser(queryClient, user);
      return queryClient.invalidateQueries({ queryKey: profileQueries.all() });
    },
  });
}
