/** Parameters naming things in a repository, validated before git sees them. */
import { z } from 'zod';

/**
 * How large a JSON or form body the repository API's writes take (files, commits with their
 * actions' contents, as text or base64), beyond the service's 1 MB; a larger one is 413.
 */
export const CONTENT_BODY_BYTES = 32 * 1024 * 1024;

/** The longest ref or path the repository API takes. */
const MAXIMUM_LENGTH = 1024;

/** Whether `value` holds a control character (below a space, or DEL), which no ref or path git accepts may hold. */
const hasControlCharacter = (value: string) => [...value].some((character) => character < ' ' || character === '\u007f');

/**
 * A branch, tag, sha or revision expression. One starting with `-` would read as an option to
 * git (`--upload-pack=...`), and control characters name nothing: both are a 400, as a name git
 * refuses would be.
 */
export const gitRevision = () =>
  z
    .string()
    .min(1)
    .max(MAXIMUM_LENGTH)
    .refine((value) => !value.startsWith('-') && !hasControlCharacter(value), { message: 'is invalid' });

/**
 * A path inside the repository, as GitLab's `file_path` validator takes it: relative, without
 * `.` or `..` segments (nothing outside the tree), without control characters. A leading slash is
 * dropped where GitLab allows one (`.../raw`).
 */
export const repositoryPath = (options: { leadingSlash?: boolean } = {}) =>
  z
    .string()
    .min(1)
    .max(MAXIMUM_LENGTH * 4)
    .transform((value) => (options.leadingSlash ? value.replace(/^\/+/, '') : value))
    .refine(
      (value) =>
        value.length > 0 &&
        !value.startsWith('/') &&
        !hasControlCharacter(value) &&
        value.split('/').every((segment) => segment !== '..' && segment !== '.'),
      { message: 'should be a valid file path' },
    );
