/** Profiles, following and blocking: the spec's text where it has one (copy.ts). */

export const profile = {
  loadingOwn: 'Loading your story!',
  loadingOther: 'Loading profile!',
  missingTitle: 'User not found!',
  missingMessage: (username: string, appName: string) => `${username} hasn't joined ${appName} yet!`,
  errorTitle: 'Errors!',
  errorMessage: 'Failed to fetch account :(',
  followers: 'Followers',
  following: 'Following',
  /** The words after the counts on a profile: "1 follower", "2 followers", "3 following". */
  followersCount: (count: number) => (count === 1 ? 'follower' : 'followers'),
  followingCount: 'following',
  settings: 'Settings',
  noPosts: 'No posts yet.',
  noUsers: 'Nobody here yet.',
  /** Not in the spec: the way on from an empty followers or following list. */
  backTo: (username: string) => `Back to @${username}`,
} as const;

export const follow = {
  follow: 'Follow',
  unfollow: 'Unfollow',
  failed: 'Could not update the follow. Please try again.',
} as const;

/** Not in the spec (issue 17): blocks, from a profile and Settings → Blocked Accounts. */
export const block = {
  action: 'Block',
  title: (username: string) => `Block @${username}?`,
  message:
    "They won't be able to see your profile or posts, or follow you, and you won't see theirs. Any follows between you end. They aren't told.",
  confirm: 'Block',
  blocked: (username: string) => `You blocked @${username}. You won't see their posts.`,
  unblock: 'Unblock',
  unblockLabel: (username: string) => `Unblock @${username}`,
  failed: 'Could not update the block. Please try again.',
  listTitle: 'Blocked Accounts',
  listIntro: 'People you blocked cannot see your profile or posts, and you do not see theirs.',
  none: "You haven't blocked anyone.",
} as const;
