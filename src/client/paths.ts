/** Every route of the app (spec section 2), in one place. */
export const paths = {
  home: '/',
  login: '/login',
  search: (query: string) => `/search/${encodeURIComponent(query)}`,
  profile: (username: string) => `/@${username}`,
  followers: (username: string) => `/@${username}/followers`,
  following: (username: string) => `/@${username}/following`,
  post: (id: string) => `/post/${id}`,
  upload: '/upload',
  settings: '/settings',
  accountSettings: '/settings/account',
  notFound: (error?: string) => (error ? `/404/${encodeURIComponent(error)}` : '/404'),
} as const;
