// Search as other features use it: its queries, which a block makes stale. The page is a route (App.tsx).
export { searchQueries } from './api/search';
