import { defineJob } from '@platform/service';

/** Carries out a scheduled storage move, or resumes one whose runner died (`StorageMoveWorker`). */
export const storageMoveJob = defineJob<{ moveId: number }>('review.storage_move');
