export { deliveryEvents, DELIVERY_TOPIC } from './delivery-events.ts';
