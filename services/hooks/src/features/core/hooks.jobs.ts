import { defineJob } from '@platform/service';

/**
 * Sends a hook's pending deliveries up to this one, oldest first. Retried only for the platform's
 * own faults (the database away, the runner killed): a receiver's failure is recorded, not retried.
 */
export const deliveryJob = defineJob<{ logId: number }>('hooks.delivery', { maxAttempts: 20 });
