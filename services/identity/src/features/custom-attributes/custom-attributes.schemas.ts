import { z } from 'zod';

/** GitLab stores both key and value in 255-character columns. */
export const customAttributeKeyParams = z.object({ id: z.string().max(255), key: z.string().max(255) });
export const setCustomAttributeParams = customAttributeKeyParams.extend({ value: z.string().max(255) });
export const customAttributesOwnerParams = z.object({ id: z.string().max(255) });
