import { createHash, randomBytes } from 'node:crypto';

/** Tokens are random and long, so a fast digest is enough to make the stored value useless. */
export function digestToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** A new personal access token, with GitLab's recognisable prefix. */
export function generateToken(): string {
  return `glpat-${randomBytes(15).toString('base64url')}`;
}
