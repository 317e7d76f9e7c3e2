import { z } from 'zod';

/** Armored keys with many signatures run to tens of kilobytes. */
const MAXIMUM_ARMORED_LENGTH = 100_000;

export const addGpgKeyParams = z.object({ key: z.string().max(MAXIMUM_ARMORED_LENGTH) });
