import type { Request } from 'express';

/** The public base URL the client used, as the gateway forwarded it. */
export function baseUrlOf(req: Request): string {
  const forwardedProto = req.get('x-forwarded-proto')?.split(',')[0]?.trim();
  const forwardedHost = req.get('x-forwarded-host')?.split(',')[0]?.trim();
  return `${forwardedProto || req.protocol}://${forwardedHost || req.get('host')}`;
}
