import { z } from 'zod';
import { params } from '@platform/http';
import { compileAnchored, parseHumanDuration } from './cleanup-rules.ts';

const positiveId = () => params.integer().pipe(z.number().positive());

export const repositoryListQuery = z.object({
  id: params.idOrPath(),
  tags: params.boolean().default(false),
  tags_count: params.boolean().default(false),
});

export const repositoryQuery = z.object({
  id: positiveId(),
  tags: params.boolean().default(false),
  tags_count: params.boolean().default(false),
});

export const repositoryParams = z.object({ id: params.idOrPath(), repository_id: positiveId() });

export const tagParams = repositoryParams.extend({ tag_name: z.string().min(1).max(255) });

/** GitLab's `untrusted_regexp` parameters: RE2, refused with RE2's reason. */
const re2Regex = () =>
  z
    .string()
    .max(1000)
    .superRefine((value, context) => {
      try {
        compileAnchored(value);
      } catch (error) {
        context.addIssue({ code: 'custom', message: `is an invalid regexp: ${error instanceof Error ? error.message : String(error)}` });
      }
    });

export const bulkTagDeletion = repositoryParams
  .extend({
    name_regex_delete: re2Regex().optional(),
    /** Deprecated spelling of `name_regex_delete`. */
    name_regex: re2Regex().optional(),
    name_regex_keep: re2Regex().optional(),
    keep_n: params.integer().pipe(z.number().min(0)).optional(),
    older_than: z
      .string()
      .max(100)
      .refine((value) => parseHumanDuration(value) !== undefined, { message: 'is invalid' })
      .optional(),
  })
  .superRefine((value, context) => {
    if (value.name_regex_delete === undefined && value.name_regex === undefined) {
      context.addIssue({
        code: 'custom',
        path: ['name_regex, name_regex_delete'],
        message: 'are missing, at least one parameter must be provided',
      });
    }
  });
