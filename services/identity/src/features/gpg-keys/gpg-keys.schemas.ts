import { z } from 'zod';
import { params } from '@platform/http';

/** Armored keys with many signatures run to tens of kilobytes. */
const MAXIMUM_ARMORED_LENGTH = 100_000;

export const addGpgKeyParams = z.object({ key: z.string().max(MAXIMUM_ARMORED_LENGTH) });
export const addUserGpgKeyParams = addGpgKeyParams.extend({ user_id: z.string().max(255) });
export const ownGpgKeysParams = z.object({});
export const ownGpgKeyParams = z.object({ key_id: params.integer() });
export const userGpgKeysParams = z.object({ user_id: z.string().max(255) });
export const userGpgKeyParams = z.object({ user_id: z.string().max(255), key_id: params.integer() });
