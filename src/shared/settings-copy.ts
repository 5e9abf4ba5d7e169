/** Account settings, sessions and password, the data export, deleting the account: the spec's text where it has one (copy.ts). */

export const account = {
  title: 'Account Settings',
  noBio: 'No bio',
  uploadPhoto: 'Upload Photo',
  editBio: 'Edit Bio',
  bioPlaceholder: 'Share something #wicked',
  update: 'Update',
  updatingTitle: 'Updating profile',
  updatingMessage: 'Hold on while we update your profile',
  successTitle: '#Personalization',
  successMessage: 'Profile successfully updated',
} as const;

/** Not in the spec (issue 16): Settings → Security's pages. */
export const security = {
  currentPassword: 'Current password',
  newPassword: 'New password',
  confirmPassword: 'Confirm new password',
  changePasswordIntro: 'You stay signed in on this device; every other device is signed out.',
  changingTitle: 'Changing password',
  changingMessage: 'Hold on while we change your password',
  changedTitle: 'Password changed',
  changedMessage: 'Every other device has been signed out.',
  sessionsIntro: 'Where your account is signed in. Sign out of anything you do not recognise.',
  thisDevice: 'This device',
  unknownBrowser: 'Unknown browser',
  onSystem: (browser: string, system: string) => `${browser} on ${system}`,
  signedIn: (when: string) => `Signed in ${when}`,
  lastActive: (when: string) => `active ${when}`,
  sessionsFailed: 'Your sessions could not be loaded.',
  signOutSessionFailed: 'That session could not be signed out. Please try again.',
  retry: 'Retry',
} as const;

/**
 * Not in the spec (issue 16): Download My Data. `files` is what the ZIP holds, in the order the
 * page lists it; the ZIP's own README.txt is written from the same list.
 */
export const dataExport = {
  intro: 'Download a copy of everything you have shared, as one ZIP file you can keep or take elsewhere.',
  contains: 'What the ZIP contains',
  files: [
    {
      name: 'account.json',
      what:
        'your username, e-mail address (and whether it is verified), the university sign-in linked to it, bio, when you joined, ' +
        'your notification settings and the devices that get pushes',
    },
    { name: 'posts.json', what: 'each post: its description, link, hashtags, when you posted it, and the file name of its photo' },
    { name: 'photos/', what: 'the full-size photo of every post, named by when it was posted' },
    { name: 'profile-icon.webp', what: 'your profile picture, if you have one' },
    { name: 'followers.json', what: 'the usernames of the people who follow you' },
    { name: 'following.json', what: 'the usernames of the people you follow' },
    {
      name: 'boards.json',
      what: 'your boards (secret ones too) with the posts saved on them, and the boards you joined with what you saved there',
    },
    {
      name: 'notifications.json',
      what: 'your notifications: who did what, and when',
    },
    { name: 'README.txt', what: 'this list, and any photo that could not be included' },
  ],
  privacy: 'Only you can download it. Keep it safe: it includes your e-mail address.',
  download: 'Download My Data',
  starting: 'Your download is starting. Your browser shows its progress; a large account can take a few minutes.',
  photoMissing: 'could not be found and is not included',
} as const;

/** Not in the spec (issue 16): Settings → Security → Delete Account. */
export const deleteAccount = {
  intro: 'Deleting your account erases, for good:',
  erases: [
    'your posts and every photo you uploaded',
    'your profile picture and bio',
    'who you follow and who follows you',
    'your boards, and what you saved to boards you joined',
    'every device you are signed in on',
  ],
  cannotUndo: 'This cannot be undone.',
  keepFirst: 'Want to keep your photos?',
  downloadFirst: 'Download your data first.',
  usernameHeld: (days: number) =>
    `Your username stays reserved for ${days} days: nobody can take it in that time, not even a new account of yours.`,
  password: 'Password',
  confirmTitle: 'Gone for good?',
  confirmMessage: (appName: string) => `Your account, posts and photos will be erased from ${appName}. This cannot be undone.`,
  deletingTitle: 'Deleting your account',
  deletingMessage: 'Hold on while we erase your posts and photos',
} as const;
