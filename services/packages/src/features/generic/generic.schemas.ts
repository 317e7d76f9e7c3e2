import { z } from 'zod';
import { params } from '@platform/http';

/** GitLab's `generic_package_name_regex` (Maven's file name rule). */
const NAME = /^[A-Za-z0-9._+-]+$/;
/** GitLab's `generic_package_version_regex` (Maven's version rule): word characters, `+`, `.`, `-`, no `..`. */
const VERSION = /^(?!.*\.\.)[\w+.-]+$/;
/** GitLab's `generic_package_file_name_regex`: the name's characters and `~`, which neither starts nor ends it. */
const FILE_NAME = /^(?!~)[A-Za-z0-9._+~-]+(?<!~)$/;

/** What GitLab's path traversal check refuses in a decoded path: `.` or `..` alone, a `..` step, a newline. */
const TRAVERSAL = /^\.{1,2}$|^\.\.[/\\]|[/\\]\.\.$|[/\\]\.\.[/\\]|\n/;

/** Percent-escapes decoded where they form characters; others (`100%`) stay as they are, as Ruby's `CGI.unescape` leaves them. */
const unescape = (value: string) =>
  value.replace(/(?:%[0-9A-Fa-f]{2})+/g, (escapes) => {
    try {
      return decodeURIComponent(escapes);
    } catch {
      return escapes;
    }
  });

/**
 * Grape's `file_path` validator as GitLab declares it on these parameters: the value, decoded once
 * more, neither climbs out of a directory nor starts at the root, and was not encoded twice.
 */
function isFilePath(value: string): boolean {
  const decoded = unescape(value);
  return decoded === unescape(decoded) && !TRAVERSAL.test(decoded) && !decoded.startsWith('/');
}

const FILE_PATH_MESSAGE = { message: 'should be a valid file path' };

const matching = (pattern: RegExp) => z.string().max(255).regex(pattern, { message: 'is invalid' });

/**
 * The directories before the file's name (`dist/linux`): the segments of the route's wildcard, or
 * `path` as a query parameter (Grape reads it from either); empty is none.
 */
const directories = z.preprocess(
  (value) => (Array.isArray(value) ? value.join('/') : value),
  z
    .string()
    .refine(isFilePath, FILE_PATH_MESSAGE)
    .optional()
    .transform((value) => value || undefined),
);

/** A generic package file: the project, the package's name and version, the file's directories and name. */
export const genericFileParams = z.object({
  id: params.idOrPath(),
  package_name: matching(NAME).refine(isFilePath, FILE_PATH_MESSAGE),
  package_version: matching(VERSION),
  path: directories,
  file_name: matching(FILE_NAME).refine(isFilePath, FILE_PATH_MESSAGE),
});

export const genericUploadParams = genericFileParams.extend({
  status: z.enum(['default', 'hidden']).optional(),
  select: z.enum(['package_file']).optional(),
});

export type GenericFileParams = z.output<typeof genericFileParams>;
