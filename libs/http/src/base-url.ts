import type { Request } from 'express';

/** Where `createServiceApp` keeps the configured public base URL, in `app.locals`. */
export const EXTERNAL_URL = 'platformExternalUrl';

/**
 * The public base URL for links in responses: the configured external URL, never a forwarding
 * header a client could have set; a service started without one links to its own address.
 */
export function baseUrlOf(req: Request): string {
  const configured = req.app.locals[EXTERNAL_URL] as string | undefined;
  return configured ?? `${req.protocol}://${req.get('host')}`;
}
