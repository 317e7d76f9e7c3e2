export { adminEvents, ADMIN_TOPIC } from './admin-events.ts';
