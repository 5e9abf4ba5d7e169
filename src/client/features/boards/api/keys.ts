/**
 * The boards' query keys, under one root: a save, an edit or a membership change touches tiles,
 * pages and the picker at once, so every boards mutation refreshes the whole root.
 */
export const BOARDS_KEY = ['boards'] as const;

export const saveTargetsKey = (postId: string) => [...BOARDS_KEY, 'save-targets', postId] as const;
export const USER_BOARDS_KEY = [...BOARDS_KEY, 'user'] as const;
export const userBoardsKey = (username: string) => [...USER_BOARDS_KEY, username] as const;
export const boardKey = (username: string, slug: string) => [...BOARDS_KEY, 'board', username, slug] as const;

/** A list's address with the cursor of the page after the last one loaded. */
export const withCursor = (path: string, cursor: string) => (cursor ? `${path}?cursor=${encodeURIComponent(cursor)}` : path);
