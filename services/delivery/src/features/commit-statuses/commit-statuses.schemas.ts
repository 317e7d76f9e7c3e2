import { z } from 'zod';
import { params } from '@platform/http';
import { POSTED_STATES } from './commit-status-transitions.ts';

const positiveId = () => params.integer().pipe(z.number().positive());
const sha = () => z.string().min(1).max(255);

/** A number as JSON gives it or as a form spells it (Grape's Float). */
const float = () =>
  z.preprocess((value) => (typeof value === 'string' && value.trim() !== '' ? Number(value) : value), z.number().finite());

/** GitLab accepts only http and https target URLs, and says so field by field. */
export const TARGET_URL_SCHEMES = ['http:', 'https:'];

export const commitStatusListQuery = z.object({
  id: params.idOrPath(),
  sha: sha(),
  ref: params.string().optional(),
  stage: params.string().optional(),
  name: params.string().optional(),
  pipeline_id: positiveId().optional(),
  all: params.boolean().optional(),
});

export const postCommitStatusBody = z.object({
  id: params.idOrPath(),
  sha: sha(),
  state: z.enum(POSTED_STATES),
  ref: z.string().min(1).max(255).optional(),
  target_url: z.string().max(255).optional(),
  description: z.string().max(255).optional(),
  name: z.string().min(1).max(255).optional(),
  context: z.string().min(1).max(255).optional(),
  coverage: float().optional(),
  pipeline_id: positiveId().optional(),
});
