/**
 * The spec's user-facing text (section 2 and 4), word for word, in one place for the client and
 * the tests. Texts that name the product take it as an argument.
 *
 * One export per screen or part, read as `import * as COPY from '…/copy'` and `COPY.login.enter`:
 * the bundler then ships only the parts a chunk names, so a lazy screen's text loads with it.
 */

export const slogan = 'A place to share your';

export const sloganTag = '#studentliving';

export const notFound = 'Not found :(';

export const goBack = 'Go Back';

export const home = 'Home';

export const cancel = 'Cancel';

export const close = 'Close';

export const notSignedIn = {
  title: 'Not signed in!',
  message: 'You need to sign in to access your board.',
  signIn: 'Sign In',
} as const;

export const feed = {
  homeTab: 'Home',
  universityTab: 'Your University',
  universityTitle: 'Still working on it!',
  universityMessage: 'This page has not been created yet!',
  empty: 'Be the first to post!',
  searchPlaceholder: 'Search',
  /** Not in the spec: the way on from an empty board or an empty search. */
  explore: 'Explore the feed',
  /** Not in the spec: a search that found no posts. */
  noResults: 'No posts found. Try another word or a #hashtag.',
} as const;

export const upload = {
  title: 'Upload',
  choosePhoto: 'Choose a photo',
  changePhoto: 'Change photo',
  descriptionLabel: 'Description',
  descriptionPlaceholder: 'Share something #wicked',
  linkLabel: 'Link a website',
  post: 'Post',
  uploadingTitle: 'About to go viral!',
  uploadingMessage: 'Wait while we upload your post.',
  successTitle: "Let's go viral!",
  successMessage: 'Successfully #posted!',
  /** Not in the spec: the success popup's way to the new post, beside its Home. */
  viewPost: 'View post',
} as const;

export const errorTitle = 'An error occurred!';

export const post = {
  visitSite: 'Visit Site',
  discover: 'Discover',
  delete: 'Delete',
  followers: (count: number) => `${count} ${count === 1 ? 'follower' : 'followers'}`,
  missingTitle: 'No awesome content!',
  missingMessage: 'Are you sure this post exists?',
  confirmDeleteTitle: 'Mysterious is the new cool???',
  confirmDeleteMessage: (appName: string) => `About to erase your mark on ${appName}`,
  deleting: 'Deleting post!',
  deleteFailedTitle: 'Failed!',
  deleteFailedMessage: 'Failed to delete post!',
  /** Not in the spec: the name of a post with no words (its heading, its share title). */
  byLabel: (username: string) => `Post by @${username}`,
} as const;

/**
 * Not in the spec (issue 31): Share on a post and a board, the system's share sheet where the
 * browser has one, else the link copied.
 */
export const share = {
  share: 'Share',
  shareLabel: (what: string) => `Share ${what}`,
  sharePost: 'Share this post',
  copied: 'Link copied',
  copyFailed: "Couldn't copy the link",
} as const;

/**
 * Not in the spec (issue 18): Save, on grid cards and a post. The rest of the boards' words are
 * BOARD_COPY (boards-copy.ts): their screens load on demand, and these ship in the first bundle.
 */
export const boards = {
  save: 'Save',
  /** The Save button once the post is on a board: the board most recently saved to. */
  saved: (name: string) => `Saved · ${name}`,
  saveLabel: (description: string) => (description ? `Save: ${description}` : 'Save this post'),
} as const;

/** Not in the spec: a screen that failed to load or to render (the routes' error boundary). */
export const routeError = {
  title: 'Something went wrong',
  offline: 'This page could not be loaded. Check your connection and try again.',
  newVersion: (appName: string) => `${appName} has been updated. Retry to load the new version.`,
  broken: 'This page ran into a problem. Try again in a moment.',
  retry: 'Retry',
} as const;

export const settings = {
  title: 'Settings',
  general: 'General',
  accountSettings: 'Account Settings',
  signOut: 'Sign Out',
  signOutTitle: "No don't leave us!",
  signOutMessage: (appName: string) => `Are you sure you want to log out of ${appName}?`,
  signOutFailed: 'Failed to sign out :(',
  /** Not in the spec: ends every session of the account (OWASP ASVS V7). */
  signOutEverywhere: 'Sign out everywhere',
  signOutEverywhereTitle: 'Sign out everywhere?',
  signOutEverywhereMessage: 'You will be signed out on every device, this one included.',
  /** Not in the spec (issue 16): the account's own security. */
  security: 'Security',
  changePassword: 'Change Password',
  sessions: 'Sessions',
  downloadData: 'Download My Data',
  deleteAccount: 'Delete Account',
  /** Not in the spec (issue 17). */
  blockedAccounts: 'Blocked Accounts',
  /** Not in the spec (issue 29). */
  emailAddress: 'E-mail Address',
} as const;

export * from './auth-copy.js';
export * from './people-copy.js';
export * from './settings-copy.js';
export * from './moderation-copy.js';
