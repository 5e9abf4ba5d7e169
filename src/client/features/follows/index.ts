export { FollowButton } from './FollowButton';
