// Argon2 is a native addon: it is loaded on the first password hashed or checked, not at start,
// since most processes never see a password (tokens and sessions carry the callers).
const argon2 = () => import('@node-rs/argon2');

/** The Argon2 hash a user's password is stored as. */
export async function hashPassword(password: string): Promise<string> {
  return (await argon2()).hash(password);
}

/** Whether `password` is the one `passwordHash` was made from. */
export async function passwordMatches(passwordHash: string, password: string): Promise<boolean> {
  return (await argon2()).verify(passwordHash, password);
}
