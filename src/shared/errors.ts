/**
 * The product's error catalogue (spec section 8) plus the messages the spec leaves "not shown".
 * The key is the stable machine code sent by the API; the value is the exact user-facing text.
 */
export const ERRORS = {
  // Posts
  INVALID_FILETYPE: 'Invalid filetype',
  IMAGE_PROCESSING_FAILED: 'Image processing and compression failed',
  DESCRIPTION_TOO_LONG: 'Description is too long',
  URL_TOO_LONG: 'URL is too long',
  IMAGE_TOO_LARGE: 'Image is too large',
  POST_NOT_FOUND: 'Post does not exists',
  /** Not in the spec, which left links to the browser's URL check: http and https only. */
  INVALID_LINK: 'Links must start with http:// or https://',
  /** Not in the spec (issue 26): the upload form's key is 1 to 64 letters, digits, '-' or '_'. */
  IDEMPOTENCY_KEY_INVALID: 'This upload could not be matched to its form. Reload the page and try again.',
  // Users
  USER_DATA_NOT_FOUND: 'User data not found',
  ICON_INVALID_FILETYPE: 'Profile icon is in an invalid filetype',
  ICON_TOO_LARGE: 'Profile icon is too large!',
  ICON_PROCESSING_FAILED: 'Image processing failed!',
  USER_NOT_FOUND: 'User not found!',
  /** Not in the spec: empty or over-long search queries (limits.ts SEARCH_QUERY_MAX_LENGTH). */
  SEARCH_QUERY_INVALID: 'Search for 1 to 100 characters.',
  /** Not in the spec: bios are capped (limits.ts BIO_MAX_LENGTH). */
  BIO_TOO_LONG: 'Bio must be at most 160 characters.',
  // Sign-up (section 5, in the spec's order)
  FILL_IN_ALL_FIELDS: 'Fill in all the fields.',
  USERNAME_SPACES: 'Remove spaces or tabs in your username.',
  USERNAME_LENGTH: 'Username must be 3-20 characters long.',
  USERNAME_INVALID: 'Invalid username.',
  USERNAME_TAKEN: 'Username has already been registered.',
  EMAIL_INVALID: 'Invalid email address.',
  PASSWORD_SPACES: 'Remove spaces or tabs in your password.',
  PASSWORD_LENGTH: 'Password must be 8-32 characters long.',
  /** Not in the spec (OWASP ASVS): one of the 10,000 most common passwords, checked by the server. */
  PASSWORD_TOO_COMMON: 'This password is too common.',
  EMAIL_TAKEN: 'Email already registered.',
  SIGN_UP_FAILED: 'Failed to create new user',
  // Who may sign up (issue 17, REGISTRATION). {domains}: REGISTRATION_EMAIL_DOMAINS, joined by ', '.
  EMAIL_DOMAIN_NOT_ALLOWED: 'Sign-ups are limited to addresses at {domains}.',
  INVITE_CODE_INVALID: 'Invalid invite code.',
  SIGN_UPS_CLOSED: 'Sign-ups are closed.',
  /** REGISTRATION=sso (issue 29): the create-account form's note, and its refusal. */
  SIGN_UP_WITH_SSO: 'New accounts are made by signing in with your university account.',
  /** SSO_ONLY (issue 29): a password sign-in (or reset link) of anyone but an admin, told only after the password is right. */
  SIGN_IN_WITH_SSO: 'Sign in with your university account.',
  // Sign-in
  INCORRECT_LOGIN: 'Incorrect log in details.',
  USERNAME_NOT_REGISTERED: 'Username not registered.',
  SIGN_IN_FAILED: 'Failed to sign in.',
  /**
   * A suspended account (issue 17), answered only after the password is right. {date}: when it
   * ends, in words and UTC ('December 1, 2026 at 9:30 AM UTC'), sent filled in as `messages`.
   */
  ACCOUNT_SUSPENDED_UNTIL: 'This account is suspended until {date}.',
  ACCOUNT_SUSPENDED: 'This account is suspended.',
  // Reports and moderation (issue 17)
  CANNOT_REPORT_YOURSELF: 'You cannot report your own posts or profile.',
  REPORT_DETAILS_REQUIRED: 'Tell us what is wrong.',
  REPORT_DETAILS_TOO_LONG: 'Details must be at most 500 characters.',
  /** Reports per account per hour (RATE_LIMIT_REPORTS_PER_USER). */
  REPORTING_TOO_FAST: 'You have sent a lot of reports. Try again later.',
  /** Reports from one address per hour, whatever the account (RATE_LIMIT_REPORTS_PER_IP). */
  REPORTS_FROM_ADDRESS_TOO_MANY: 'Many reports have come from your network this hour. Try again later.',
  MODERATION_NOTE_TOO_LONG: 'Note must be at most 500 characters.',
  /** A moderator acting on an admin or on themselves; a role change by anyone but an admin. */
  MODERATION_NOT_ALLOWED: 'You cannot do that to this account.',
  /** The reports of that target were closed already (another moderator was quicker). */
  REPORTS_ALREADY_CLOSED: 'These reports were already handled.',
  NOT_SUSPENDED: 'This account is not suspended.',
  // Account management (not in the spec; issue 16)
  INCORRECT_PASSWORD: 'Incorrect password.',
  PASSWORDS_DO_NOT_MATCH: 'Passwords do not match.',
  RESET_LINK_INVALID: 'This link has expired or has already been used. Ask for a new one.',
  SESSION_NOT_FOUND: 'That session has already ended.',
  // Verified e-mail (not in the spec; issue 29). {email}: the address being verified.
  /** Posting, following, saving, reporting or inviting before the address is verified. */
  EMAIL_NOT_VERIFIED: 'Check your inbox to verify {email}.',
  VERIFY_LINK_INVALID: 'This verification link has expired or has already been used. Send a new one.',
  /** Issue 29: a mailed link that takes back a deleted account's held name. */
  CLAIM_LINK_INVALID: 'This link has expired or has already been used. Sign up again to get a new one.',
  /** A wrong code, or one that ran out; after VERIFY_CODE_ATTEMPTS wrong ones the code is void until a new mail. */
  VERIFY_CODE_INVALID: 'That code is not right, or it has expired.',
  /** Verification mails per account, or to one address, per 15 minutes (RATE_LIMIT_VERIFY_MAILS_*). */
  VERIFY_MAILS_TOO_MANY: 'We have sent several e-mails already. Try again later.',
  ALREADY_VERIFIED: 'Your address is already verified.',
  SAME_EMAIL: 'That is already your address.',
  // Single sign-on (not in the spec; issue 29)
  SSO_FAILED: 'Signing in with your university account did not work. Try again.',
  SSO_UNAVAILABLE: 'Your university sign-in cannot be reached right now. Try again in a moment, or sign in with your password.',
  /** OIDC_ALLOWED_DOMAINS, or REGISTRATION=domains for a new account: the provider vouched for no address there. */
  SSO_DOMAIN_NOT_ALLOWED: 'That account does not have an address this site is for.',
  SSO_NO_EMAIL: 'Your university account gave no e-mail address, and an account here needs one.',
  SSO_ALREADY_LINKED: 'That university account is already connected to another account.',
  /** A first sign-on whose address an account here has: it is never linked by e-mail alone. */
  SSO_EMAIL_TAKEN: 'An account here already has that address. Sign in to it, then connect your university account in Settings.',
  SSO_SIGNUP_EXPIRED: 'This sign-up has run out of time. Start again.',
  /** Unlinking the only way in. */
  SSO_NEEDS_PASSWORD: 'Add a password first, or you could not sign in any more.',
  /**
   * An account without a password proves it is its owner by a fresh sign-in with the university
   * account (RECENT_SIGN_IN_MS) where others type their password: adding one, deleting the account.
   */
  SSO_REAUTH_NEEDED: 'Sign in again with your university account, then try again within 10 minutes.',
  // Blocks (not in the spec; issue 17)
  CANNOT_BLOCK_YOURSELF: 'You cannot block yourself.',
  /** Following someone you blocked: unblock them first (from their profile or Blocked Accounts). */
  UNBLOCK_TO_FOLLOW: 'Unblock this user to follow them.',
  /** Blocks and unblocks per account per hour (RATE_LIMIT_BLOCKS_PER_USER). */
  BLOCKING_TOO_FAST: 'You have blocked or unblocked a lot of accounts. Try again later.',
  // Boards (not in the spec; issue 18)
  BOARD_NAME_REQUIRED: 'Give your board a name.',
  BOARD_NAME_TOO_LONG: 'Board name must be at most 50 characters.',
  BOARD_DESCRIPTION_TOO_LONG: 'Board description must be at most 200 characters.',
  BOARD_NAME_TAKEN: 'You already have a board with that name.',
  /** BOARDS_PER_USER_MAX (limits.ts). */
  TOO_MANY_BOARDS: 'You can have at most 500 boards. Delete one to make another.',
  /** BOARD_POSTS_MAX (limits.ts). */
  BOARD_FULL: 'This board is full: a board holds at most 10,000 posts.',
  /** A board that does not exist, or that the viewer may not see (secret, blocked, suspended). */
  BOARD_NOT_FOUND: 'Board not found.',
  /** A chosen cover must be one of the board's posts. */
  COVER_NOT_ON_BOARD: 'Choose a cover from the posts on this board.',
  CANNOT_INVITE_YOURSELF: 'You cannot invite yourself to your own board.',
  /** BOARD_MEMBERS_MAX (limits.ts): invited and joined together. */
  TOO_MANY_COLLABORATORS: 'A board can have at most 50 collaborators.',
  /** Joining a board without an invitation. */
  NOT_INVITED: 'You need an invitation to join this board.',
  /** The owner cannot leave their own board (they delete it). */
  OWNER_CANNOT_LEAVE: 'You own this board. Delete it instead.',
  /** Saves and board edits per account per hour (RATE_LIMIT_BOARD_WRITES_PER_USER). */
  SAVING_TOO_FAST: 'You have saved a lot of posts. Try again later.',
  // Notifications (issue 30)
  /** A push subscription whose endpoint is not at an allowed push service (PUSH_SERVICES), or whose keys are not keys. */
  PUSH_SUBSCRIPTION_INVALID: 'This browser cannot receive push notifications from us. Try another browser.',
  /** PUSH_DEVICES_MAX (limits.ts). */
  TOO_MANY_PUSH_DEVICES: 'Push notifications are on for 20 devices already. Remove one first.',
  /** Push subscriptions added per account per hour. */
  PUSH_DEVICES_TOO_FAST: 'You have turned push notifications on many times. Try again later.',
  // Not shown in the spec: our own wording.
  GENERIC: 'Something went wrong. Please try again.',
  NOT_SIGNED_IN: 'You need to sign in first.',
  FORBIDDEN: 'You are not allowed to do that.',
  /** A write sent by another site's page (CSRF); see server/http/same-origin.ts. */
  CROSS_SITE_REQUEST: 'Cross-site requests are not allowed.',
  NOT_FOUND: 'Not found :(',
  BAD_REQUEST: 'That request was not valid.',
  PAYLOAD_TOO_LARGE: 'That request was too large.',
  RATE_LIMITED: 'Too many attempts. Please wait a few minutes and try again.',
  /** Per-user upload limits (server config RATE_LIMIT_POSTS_PER_USER / RATE_LIMIT_ICONS_PER_USER). */
  POSTING_TOO_FAST: 'You are posting too fast. Try again later.',
  ICON_CHANGES_TOO_FAST: 'You have changed your picture too often. Try again later.',
  /** Per-address and per-account search limits (RATE_LIMIT_SEARCH_PER_IP / RATE_LIMIT_SEARCH_PER_USER). */
  SEARCHING_TOO_FAST: 'You are searching too fast. Try again in a minute.',
  /** More searches at once than the server runs or queues (SEARCH_CONCURRENCY, SEARCH_QUEUE), or one ran out of time. */
  SEARCH_BUSY: 'Search is busy right now. Try again in a moment.',
  /** The database (or another service the server needs) cannot be reached right now. */
  SERVICE_UNAVAILABLE: 'The service is temporarily unavailable. Try again in a moment.',
  /** The server's image queue is full (server config IMAGE_CONCURRENCY / IMAGE_QUEUE_LENGTH); sent with 503 and Retry-After. */
  IMAGE_QUEUE_FULL: 'Lots of photos are being uploaded right now. Try again in a moment.',
  /** The account's own uploads still in work take its share of the image queue (image-queue.ts); sent with 429 and Retry-After. */
  UPLOADS_IN_PROGRESS: 'Your other photos are still being processed. Try again in a moment.',
  /** Download My Data (issue 16): exports per account per hour (RATE_LIMIT_EXPORTS_PER_USER). */
  EXPORTING_TOO_OFTEN: 'You have downloaded your data several times this hour. Try again later.',
  /** More exports at once than this server makes (EXPORT_CONCURRENCY); sent with 503 and Retry-After. */
  EXPORT_BUSY: 'Lots of downloads are being prepared right now. Try again in a minute.',
  /** A second download of the same account while one is still being made (one at a time per account); sent with 409. */
  EXPORT_ALREADY_RUNNING: 'Your data is already being downloaded. Wait for that download to finish.',
} as const;

export type ErrorCode = keyof typeof ERRORS;

/** The JSON body of every API error. */
export interface ApiErrorBody {
  code: ErrorCode;
  message: string;
  /** Accumulated messages (sign-up), one per line on screen. */
  messages?: string[];
  /** For developers: what was wrong with a malformed request. Never shown to users. */
  detail?: string;
}

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && Object.hasOwn(ERRORS, value);
}

/** The machine code of one of the catalogue's messages (validators speak in messages). */
export function errorCodeOf(message: string): ErrorCode {
  const entry = Object.entries(ERRORS).find(([, text]) => text === message || fitsTemplate(text, message));
  return entry ? (entry[0] as ErrorCode) : 'BAD_REQUEST';
}

/** A message with its {placeholders} filled in ('... addresses at {domains}.') is still that message. */
function fitsTemplate(template: string, message: string): boolean {
  const parts = template.split(/\{\w+\}/);
  if (parts.length < 2) return false;
  const escaped = parts.map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(`^${escaped.join('.+')}$`, 's').test(message);
}
