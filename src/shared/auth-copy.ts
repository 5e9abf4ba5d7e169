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
