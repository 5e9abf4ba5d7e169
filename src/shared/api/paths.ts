/** API paths, shared by the server's routes and the client's fetchers. */
export const API = {
  register: '/api/auth/register',
  login: '/api/auth/login',
  logout: '/api/auth/logout',
  logoutAll: '/api/auth/logout-all',
  me: '/api/me',
  openapi: '/api/openapi.json',
  posts: '/api/posts',
  post: (id: string) => `/api/posts/${encodeURIComponent(id)}`,
  related: (id: string) => `/api/posts/${encodeURIComponent(id)}/related`,
  user: (username: string) => `/api/users/${encodeURIComponent(username)}`,
  userPosts: (username: string) => `/api/users/${encodeURIComponent(username)}/posts`,
  followers: (username: string) => `/api/users/${encodeURIComponent(username)}/followers`,
  following: (username: string) => `/api/users/${encodeURIComponent(username)}/following`,
  follow: (username: string) => `/api/users/${encodeURIComponent(username)}/follow`,
  searchUsers: (query: string) => `/api/search/users?q=${encodeURIComponent(query)}`,
  searchPosts: (query: string) => `/api/search/posts?q=${encodeURIComponent(query)}`,
} as const;
