/**
 * The spec's user-facing text (section 2 and 4), word for word, in one place for the client and
 * the tests. Texts that name the product take it as an argument.
 */
export const COPY = {
  slogan: 'A place to share your',
  sloganTag: '#studentliving',
  login: {
    identifierPlaceholder: 'Username or Email',
    usernamePlaceholder: 'Username',
    emailPlaceholder: 'Email',
    passwordPlaceholder: 'Password',
    enter: 'Enter',
    newAccount: 'New Account',
    existingAccount: 'Existing Account',
    create: 'Create',
  },
  notFound: 'Not found :(',
  goBack: 'Go Back',
  home: 'Home',
  cancel: 'Cancel',
  close: 'Close',
  notSignedIn: {
    title: 'Not signed in!',
    message: 'You need to sign in to access your board.',
    signIn: 'Sign In',
  },
  feed: {
    homeTab: 'Home',
    universityTab: 'Your University',
    universityTitle: 'Still working on it!',
    universityMessage: 'This page has not been created yet!',
    empty: 'Be the first to post!',
    searchPlaceholder: 'Search',
  },
  settings: {
    title: 'Settings',
    general: 'General',
    accountSettings: 'Account Settings',
    signOut: 'Sign Out',
    signOutTitle: "No don't leave us!",
    signOutMessage: (appName: string) => `Are you sure you want to log out of ${appName}?`,
    signOutFailed: 'Failed to sign out :(',
  },
} as const;
