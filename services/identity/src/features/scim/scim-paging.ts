const DEFAULT_COUNT = 20;
const MAX_COUNT = 100;

/**
 * RFC 7644 paging as GitLab applies it: `startIndex` is 1-based and a value below 1 counts as 1;
 * a `count` below 1 or missing is the default page size, and one above 100 is 100.
 */
export function scimPage(query: { startIndex?: number | undefined; count?: number | undefined }): { startIndex: number; count: number } {
  const startIndex = Math.max(1, query.startIndex ?? 1);
  const requested = query.count ?? DEFAULT_COUNT;
  return { startIndex, count: requested < 1 ? DEFAULT_COUNT : Math.min(requested, MAX_COUNT) };
}
