export { reviewEvents, REVIEW_TOPIC } from './review-events.ts';
