/** Business constants and limits (spec section 9). One place, used by client, server and tests. */

export const POST_IMAGE_QUALITY = 0.6;
/** PNG and WebP post images above this size are converted to JPEG by the client compressor. */
export const POST_IMAGE_CONVERT_SIZE = 3_000_000;
export const POST_IMAGE_MAX_BYTES = 3_000_000;
/** An upload form's key (issue 26) answers with the post it first made for this long. */
export const POST_IDEMPOTENCY_WINDOW_MS = 10 * 60 * 1000;
/** An upload form's key: 1 to 64 of A-Z, a-z, 0-9, '-' and '_' (a UUID or 32 hex digits). */
export const POST_IDEMPOTENCY_KEY_MAX_LENGTH = 64;

export const ICON_QUALITY = 0.4;
export const ICON_CONVERT_SIZE = 1_000_000;
export const ICON_MAX_BYTES = 500_000;

export const DESCRIPTION_MAX_LENGTH = 200;
/** Not in the spec: a bio is a line or two under the handle, like other social apps allow. */
export const BIO_MAX_LENGTH = 160;
export const LINK_MAX_LENGTH = 200;

export const USERNAME_MIN_LENGTH = 3;
export const USERNAME_MAX_LENGTH = 20;
export const USERNAME_PATTERN = /^[a-z0-9_.]+$/;

/** Not in the spec (issue 16): a deleted account's username is held this long, for everyone (issue 26: its own address included). */
export const USERNAME_HOLD_DAYS = 30;

export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 32;

/** RFC 5321 caps a forward path at 254 characters; longer is never a real address. */
export const EMAIL_MAX_LENGTH = 254;

/**
 * Any text field of a JSON body is refused outright past this many characters, before any
 * rule runs: no legitimate value comes near it, and it keeps huge strings away from the
 * validators and the password hasher.
 */
export const TEXT_FIELD_HARD_MAX = 1_000;

export const SEARCH_MAX_POSTS = 100;
export const SEARCH_MAX_USERS = 10;
/** Not in the spec: longer queries are refused (no real search is longer; it bounds the work). */
export const SEARCH_QUERY_MAX_LENGTH = 100;
/** Not in the spec: only the first words of a long query are used for posts. */
export const SEARCH_MAX_WORDS = 10;
export const HOME_FEED_PAGE_SIZE = 100;
export const PROFILE_POSTS_PAGE_SIZE = 50;
export const RELATED_HASHTAGS_USED = 10;
export const RELATED_KEYWORDS_USED = 20;
export const RELATED_MAX_POSTS = 100;
export const HOME_SKELETON_CARDS = 6;
/** Not in the spec: follower and following lists load this many rows at a time. */
export const FOLLOW_LIST_PAGE_SIZE = 100;

export const NAV_ACTIVE_COLOR = '#FF0048';
export const NAV_INACTIVE_COLOR = '#F9F9F9';

/** Boards (not in the spec; issue 18). The 10,000 is also a CHECK in migration 12. */
export const BOARD_NAME_MAX_LENGTH = 50;
export const BOARD_DESCRIPTION_MAX_LENGTH = 200;
export const BOARDS_PER_USER_MAX = 500;
export const BOARD_POSTS_MAX = 10_000;
/** Collaborators of one board, invited and joined together. */
export const BOARD_MEMBERS_MAX = 50;
/** A board page loads this many posts at a time (like a profile). */
export const BOARD_POSTS_PAGE_SIZE = 50;
/** The Boards tab loads this many boards at a time. */
export const BOARDS_PAGE_SIZE = 24;

/** Notifications (issue 30): groups per page of /activity. */
export const ACTIVITY_PAGE_SIZE = 20;
/** Devices one account may get pushes on. */
export const PUSH_DEVICES_MAX = 20;
