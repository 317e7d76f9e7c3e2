import { defineJob } from '@platform/service';

/**
 * Sends a delivery, after the hook's older pending ones. Retried only for the platform's own
 * faults (the database away, the runner killed): a receiver's failure is recorded, not retried.
 * Eight run at once per replica, so that a receiver that hangs holds up no other hook.
 */
export const deliveryJob = defineJob<{ logId: number }>('hooks.delivery', { maxAttempts: 20, concurrency: 8 });
