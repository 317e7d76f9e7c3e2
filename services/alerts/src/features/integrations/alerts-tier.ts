/**
 * The paid tier (`premium`) allows several HTTP endpoints per project and groups payloads into
 * open alerts; the free tier has one generic endpoint and opens an alert per payload.
 */
export type AlertsTier = 'free' | 'premium';
