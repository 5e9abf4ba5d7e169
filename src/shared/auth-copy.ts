import { ERRORS } from './errors.js';

/** Signing in, creating an account and resetting a password: the spec's text where it has one (copy.ts). */

export const login = {
  identifierPlaceholder: 'Username or Email',
  usernamePlaceholder: 'Username',
  emailPlaceholder: 'Email',
  passwordPlaceholder: 'Password',
  /** REGISTRATION=invite (issue 17): the create-account form's last field. */
  inviteCodePlaceholder: 'Invite code',
  enter: 'Enter',
  newAccount: 'New Account',
  existingAccount: 'Existing Account',
  create: 'Create',
} as const;

/** Not in the spec (issue 16): a password reset link's page (/reset/{token}). */
export const reset = {
  title: 'Choose a new password',
  checking: 'Checking your link',
  forUser: (username: string) => `For @${username}. Then you are signed in here, and signed out on every other device.`,
  submit: 'Set Password',
  settingTitle: 'Setting your password',
  settingMessage: 'Hold on while we set your new password',
  invalidTitle: 'Link not valid',
  toSignIn: 'Back to Sign In',
} as const;

/** Not in the spec (issue 16): "Forgot password?" on the sign-in screen, when the server sends mail. */
export const forgot = {
  link: 'Forgot password?',
  title: 'Forgot password?',
  intro: 'Enter your username or e-mail. We will e-mail the account a link to choose a new password.',
  submit: 'Send Link',
  sendingTitle: 'Sending your link',
  sentTitle: 'Check your e-mail',
  sentMessage:
    'If that matches an account, a link to choose a new password is on its way to its e-mail address. The link works for one hour.',
  toSignIn: 'Back to Sign In',
} as const;

/** Not in the spec (issue 16): the mail "Forgot password?" sends. */
export const resetMail = {
  subject: (appName: string) => `Choose a new ${appName} password`,
  greeting: (username: string) => `Hi @${username},`,
  asked: (appName: string) => `Someone, hopefully you, asked for a link to choose a new password for your ${appName} account:`,
  button: 'Choose a new password',
  expires: 'The link works once, within one hour.',
  ignore: 'If you did not ask for it, ignore this e-mail: your password stays as it is.',
} as const;

/** Not in the spec (issue 29): a deleted account's held name, back early to whoever proves its address. */
export const claimMail = {
  subject: (appName: string) => `Your username on ${appName}`,
  greeting: 'Hi,',
  asked: (appName: string, username: string) =>
    `Someone, hopefully you, asked to sign up to ${appName} as @${username} with this address. That name belonged to the account of this address, which was deleted, and nobody else can have it yet. To have it back with a new account, open this link:`,
  button: (username: string) => `Sign up as @${username}`,
  expires: 'The link works once, within 24 hours. The account gets the password you chose when you signed up.',
  ignore: 'If you did not ask for it, ignore this e-mail: nothing happens.',
} as const;

/** Not in the spec (issue 29): the page of the link in that mail (/claim/{token}). */
export const claim = {
  title: 'Your username',
  checking: 'Checking your link',
  intro: (username: string, email: string) =>
    `Make a new account as @${username}, with ${email} (now verified) and the password you chose when you signed up.`,
  submit: 'Create Account',
  creatingTitle: 'Creating your account',
  creatingMessage: 'Hold on while we set up your account',
  invalidTitle: 'Link not valid',
  toSignIn: 'Back to Sign In',
} as const;

/** Not in the spec (issue 29): the mail that verifies an address. */
export const verifyMail = {
  subject: (appName: string) => `Verify your e-mail address for ${appName}`,
  greeting: (username: string) => `Hi @${username},`,
  asked: (appName: string, email: string) => `Open this link to verify ${email} for your ${appName} account:`,
  button: 'Verify my address',
  codeLead: 'Or enter this code in the app:',
  code: (code: string) => `Or enter this code in the app: ${code}`,
  expires: 'The link and the code work once, within 24 hours.',
  ignore: (appName: string) => `If you did not ask for a ${appName} account, ignore this e-mail: nothing happens.`,
} as const;

/**
 * Not in the spec (issue 29): what an account sees until its address is verified, on each screen
 * it cannot use yet (posting, following, saving, reporting, inviting), and the link's page.
 */
export const verify = {
  /** ERRORS.EMAIL_NOT_VERIFIED's words, filled in: the server's 403 and the screens say the same. */
  checkInbox: (email: string) => ERRORS.EMAIL_NOT_VERIFIED.replace('{email}', email),
  resend: 'Resend',
  changeAddress: 'Change address',
  codeLabel: '6-digit code',
  submitCode: 'Verify',
  resent: (email: string) => `A new link and code are on their way to ${email}.`,
  verifiedTitle: 'Address verified',
  verified: (email: string) => `${email} is verified. You can post, follow and save now.`,
  checkingTitle: 'Verifying your address',
  invalidTitle: 'Link not valid',
  toHome: 'Go to Home',
  toSignIn: 'Sign In',
  dialogTitle: 'Verify your address first',
  /** Settings → E-mail Address: the same panel, for the address waiting to be verified. */
  settingsTitle: 'Verify your address',
} as const;

/** Not in the spec (issue 29): Settings → Security → E-mail Address. */
export const emailSettings = {
  current: 'Your address',
  verified: 'Verified',
  notVerified: 'Not verified yet',
  pending: (email: string) => `Waiting for you to verify ${email}. Until then you sign in and get mail at your current address.`,
  cancelPending: 'Keep my current address',
  newEmail: 'New e-mail address',
  changeHeading: 'Change address',
  currentPassword: 'Current password',
  submit: 'Change Address',
  savingTitle: 'Changing your address',
  savingMessage: 'Hold on while we save your new address',
  changedTitle: 'Check your inbox',
  changedNowTitle: 'Address changed',
  changed: (email: string) => `We sent a link and a code to ${email}. Your address changes once you verify it.`,
  changedNow: 'Your address has been changed.',
} as const;

/** Not in the spec (issue 29): single sign-on with the university's account (OIDC_NAME is its name). */
export const sso = {
  continueWith: (name: string) => `Continue with ${name}`,
  or: 'or',
  /** SSO_ONLY: the password form, for admins. */
  adminSignIn: 'Sign in with a password (admins)',
  welcomeTitle: 'Choose your username',
  welcomeIntro: (email: string) => `You signed in as ${email}. Choose the name people will know you by here.`,
  create: 'Create Account',
  creatingTitle: 'Creating your account',
  creatingMessage: 'Hold on while we set up your account',
  toSignIn: 'Back to Sign In',
  connected: (name: string) => `${name} is connected: you can sign in with it.`,
  notConnected: (name: string) => `Connect ${name} to sign in with your university account.`,
  justConnected: (name: string) => `${name} is now connected.`,
  connect: (name: string) => `Connect ${name}`,
  disconnect: (name: string) => `Disconnect ${name}`,
  disconnected: (name: string) => `${name} is disconnected.`,
  /** Issue 29 point 3: an account without a password proves it is its owner by a fresh sign-in. */
  signInAgain: (name: string) => `Sign in again with ${name}`,
  /** Issue 29 point 3: graduation. An account that signs in only through the provider. */
  onlyThrough: (name: string) =>
    `You sign in only with ${name}. Add a password and an address of your own, so you can still sign in when your university account ends.`,
  addPassword: 'Add a password',
  addAddress: 'Add your own address',
  lastSignIn: (name: string, date: string) => `${name} last signed you in on ${date}.`,
  refused: (name: string, date: string) => `${name} did not sign you in on ${date}: your university account may have ended.`,
  stale: (name: string, date: string) => `${name} has not signed you in since ${date}: your university account may have ended.`,
} as const;
