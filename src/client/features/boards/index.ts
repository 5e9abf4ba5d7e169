// Boards as other features use them: Save on a post and on a grid card, and a profile's Boards
// tab. The board page is a route of its own (App.tsx), so it is not exported here.
export { CardSaveButton, SaveButton } from './components/SaveButton';
export { UserBoards } from './UserBoards';
export { boardQueries } from './api/queries';
// An invitation answered from elsewhere (its row on /activity).
export { useJoinBoard } from './api/join-board';
export { useSetBoardMember } from './api/board-member';
