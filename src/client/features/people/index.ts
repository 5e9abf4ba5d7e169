// People as other features use them: blocking, and the profile queries a follow makes stale.
export { blockedAccountsQuery, useSetBlocked } from './api/blocks';
export { profileQueries } from './api/profile';
