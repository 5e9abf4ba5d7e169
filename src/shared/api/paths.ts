/** API paths, shared by the server's routes and the client's fetchers. */
export const API = {
  register: '/api/auth/register',
  login: '/api/auth/login',
  logout: '/api/auth/logout',
  me: '/api/me',
  openapi: '/api/openapi.json',
  posts: '/api/posts',
  post: (id: string) => `/api/posts/${encodeURIComponent(id)}`,
  related: (id: string) => `/api/posts/${encodeURIComponent(id)}/related`,
} as const;
