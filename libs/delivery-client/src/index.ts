export { deliveryEvents, DELIVERY_TOPIC } from './delivery-events.ts';
export { detailedStatusView } from './pipeline-status.ts';
