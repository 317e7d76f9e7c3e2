import { parse, type Filter } from 'scim2-parse-filter';
import { ScimFilterError } from './scim-errors.ts';

/** What a SCIM User filter may ask for: `id` and `externalId` both name the external UID. */
export type ScimUserFilter = { attribute: 'externalId' | 'userName'; value: string };

const CORE_USER_SCHEMA_PREFIX = 'urn:ietf:params:scim:schemas:core:2.0:user:';

/** RFC 7643 attribute names are case-insensitive and may carry their schema URN. */
export function normaliseAttributePath(path: string): string {
  const lower = path.trim().toLowerCase();
  return lower.startsWith(CORE_USER_SCHEMA_PREFIX) ? lower.slice(CORE_USER_SCHEMA_PREFIX.length) : lower;
}

const FILTERABLE: Record<string, ScimUserFilter['attribute']> = {
  id: 'externalId',
  externalid: 'externalId',
  username: 'userName',
};

function parseFilter(filter: string): Filter {
  try {
    return parse(filter);
  } catch {
    throw new ScimFilterError(`The filter "${filter}" is not a valid SCIM filter`);
  }
}

/** Parses a `filter` parameter; only `eq` on `id`, `externalId` or `userName` is supported. */
export function parseUserFilter(filter: string): ScimUserFilter {
  const parsed = parseFilter(filter);
  if (parsed.op !== 'eq') throw new ScimFilterError(`Unsupported filter operator "${parsed.op}": only "eq" is supported`);
  const attribute = FILTERABLE[normaliseAttributePath(parsed.attrPath)];
  if (!attribute) {
    throw new ScimFilterError(`Unsupported filter attribute "${parsed.attrPath}": only id, externalId and userName are supported`);
  }
  // An unquoted number is still an identifier; true, false and null never are.
  if (typeof parsed.compValue !== 'string' && typeof parsed.compValue !== 'number') {
    throw new ScimFilterError(`The filter value of "${parsed.attrPath}" must be a string`);
  }
  return { attribute, value: String(parsed.compValue) };
}

/** Whether an `emails[...].value` path selects the work or the primary address: a user's one email here. */
export function isWorkEmailPath(path: string): boolean {
  const match = /^emails\[(.+)\]\.value$/i.exec(path.trim());
  if (!match?.[1]) return false;
  let selector: Filter;
  try {
    selector = parse(match[1]);
  } catch {
    return false;
  }
  if (selector.op !== 'eq') return false;
  const attribute = selector.attrPath.toLowerCase();
  if (attribute === 'type') return typeof selector.compValue === 'string' && selector.compValue.toLowerCase() === 'work';
  return attribute === 'primary' && selector.compValue === true;
}
