import type { UserEmail } from './user-email.entity.ts';

/** GitLab's `Email`. */
export function userEmailView(email: Pick<UserEmail, 'id' | 'email' | 'confirmedAt'>) {
  return { id: email.id, email: email.email, confirmed_at: email.confirmedAt ?? null };
}
