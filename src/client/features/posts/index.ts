// The posts feature as other features use it: the feed, the grid of cards, and creating a post.
export { useCreatePost } from './api/create-post';
export { Feed } from './components/Feed';
export { PostGrid } from './components/PostGrid';
