import { InputError } from '@platform/errors';

/** Some identity providers send booleans as the strings "True" and "False". */
export function scimBoolean(value: unknown, path: string): boolean {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'string' && /^(true|false)$/i.test(value)) return value.toLowerCase() === 'true';
  throw new InputError(`${path} must be a boolean`);
}

export interface ScimEmail {
  value?: unknown;
  type?: unknown;
  primary?: unknown;
}

/** The work address, else the primary one, else the first: a user has one email here. */
export function chooseEmail(emails: ScimEmail[]): unknown {
  const work = emails.find((email) => typeof email.type === 'string' && email.type.toLowerCase() === 'work');
  const primary = emails.find(
    (email) => email.primary === true || (typeof email.primary === 'string' && email.primary.toLowerCase() === 'true'),
  );
  return (work ?? primary ?? emails[0])?.value;
}

/** `formatted`, else the given and family names joined, as GitLab names a provisioned user. */
export function nameFrom(name: { formatted?: unknown; givenName?: unknown; familyName?: unknown }): string | undefined {
  if (typeof name.formatted === 'string' && name.formatted.trim()) return name.formatted.trim();
  const parts = [name.givenName, name.familyName].filter((part): part is string => typeof part === 'string' && part.trim() !== '');
  return parts.length > 0 ? parts.map((part) => part.trim()).join(' ') : undefined;
}

/**
 * The username for a SCIM `userName`, cleaned as GitLab cleans it: identity providers often send
 * an email address, whose local part becomes the username; characters a username cannot hold are
 * dropped, and so are trailing `.git`, `.atom` and `.` and leading `-`.
 */
export function usernameFrom(userName: string): string {
  let username = userName
    .trim()
    .replace(/@.*$/, '')
    .replace(/[^a-zA-Z0-9_.-]/g, '');
  for (let previous = ''; previous !== username; ) {
    previous = username;
    username = username.replace(/(\.git|\.atom|\.)$/, '');
  }
  username = username.replace(/^-+/, '');
  if (!username) throw new InputError(`userName "${userName}" has no characters a username can hold`);
  return username;
}

const EMAIL_PATTERN = /^[^@\s]+@[^@\s]+$/;

export function looksLikeEmail(value: string): boolean {
  return EMAIL_PATTERN.test(value);
}
