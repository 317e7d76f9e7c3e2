/** GitLab's votes on a merge request: its `upvotes` and `downvotes` count the award emoji of these names. */
export const UPVOTE = 'thumbsup';
export const DOWNVOTE = 'thumbsdown';
