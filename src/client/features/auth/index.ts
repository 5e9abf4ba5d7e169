// Signing in, up and out, as other features use it.
export { useSignOut } from './api/sign-out';
