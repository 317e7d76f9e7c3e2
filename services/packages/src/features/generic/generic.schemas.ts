import { z } from 'zod';
import { params } from '@platform/http';

/** GitLab's `generic_package_name_regex` (Maven's file name rule), also for file names. */
const NAME = /^[A-Za-z0-9._+-]+$/;
/** GitLab's `generic_package_version_regex` (Maven's version rule): word characters, `+`, `.`, `-`, no `..`. */
const VERSION = /^(?!.*\.\.)[\w+.-]+$/;

const matching = (pattern: RegExp) =>
  z
    .string()
    .max(255)
    .regex(pattern, { message: 'is invalid' })
    // Grape's `file_path` validator: nothing that walks out of a directory.
    .refine((value) => value !== '.' && value !== '..', { message: 'is invalid' });

/** A generic package file: the project, the package's name and version, the file's name. */
export const genericFileParams = z.object({
  id: params.idOrPath(),
  package_name: matching(NAME),
  package_version: matching(VERSION),
  file_name: matching(NAME),
});

export const genericUploadParams = genericFileParams.extend({
  status: z.enum(['default', 'hidden']).optional(),
  select: z.enum(['package_file']).optional(),
});

export type GenericFileParams = z.output<typeof genericFileParams>;
