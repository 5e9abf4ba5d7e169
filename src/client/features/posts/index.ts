// The posts feature as other features use it: the feed, the grids of cards, creating a post, and
// the queries other features' changes make stale.
export { postQueries } from './api/queries';
export { useCreatePost } from './api/create-post';
export { Feed } from './components/Feed';
export { InfinitePostGrid } from './components/InfinitePostGrid';
export { PostGrid } from './components/PostGrid';
