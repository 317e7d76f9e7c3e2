import { z } from 'zod';
import { params } from '@platform/http';
import { INTEGRATION_TYPES } from './integration.entity.ts';

const integrationName = z.string().trim().min(1).max(255);

export const projectParams = z.object({ id: params.idOrPath() });

export const integrationParams = projectParams.extend({ integration_id: params.integer().pipe(z.number().positive()) });

export const createIntegrationInput = projectParams.extend({
  name: integrationName,
  type: z.enum(INTEGRATION_TYPES).default('http'),
  active: params.boolean().default(true),
});

export const updateIntegrationInput = integrationParams.extend({
  name: integrationName.optional(),
  active: params.boolean().optional(),
});

/** A sample payload: a JSON object, or a string holding one (as a form field carries it). */
export const testIntegrationInput = integrationParams.extend({
  payload: z.union([z.string().max(1024 * 1024), z.record(z.string(), z.unknown())]),
});
