export { alertsEvents, ALERTS_TOPIC } from './alerts-events.ts';
