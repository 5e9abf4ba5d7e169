/** A list's query for the page after the last one loaded (the first page has no cursor). */
export const cursorQuery = (cursor: string | null) => (cursor ? { cursor } : {});
