import type { AuthenticatedCaller } from '@platform/auth';
import type { ProjectAccess } from '@platform/identity-client';
import type { Signature } from './git-repository.ts';

/** What git refuses in a signature's name or email (the brackets that delimit the email, line breaks). */
const UNSAFE = /[<>\n\r\0]/g;

/** A signature as git writes it: without the characters that would end its name or email early. */
export function cleanSignature(signature: Signature): Signature {
  return { name: signature.name.replace(UNSAFE, '').trim(), email: signature.email.replace(UNSAFE, '').trim() };
}

/** Who the service writes a commit as when the caller writes it: their name and their private commit email on this host. */
export function signatureOf(caller: AuthenticatedCaller, project: Pick<ProjectAccess, 'webUrl'>): Signature {
  return cleanSignature({
    name: caller.name,
    email: `${caller.userId}-${caller.username}@users.noreply.${new URL(project.webUrl).hostname}`,
  });
}
