import { InputError } from '@platform/errors';
import { isWorkEmailPath, normaliseAttributePath } from './scim-filter.ts';
import { chooseEmail, nameFrom, scimBoolean } from './scim-user-attributes.ts';

export interface ScimPatchOperation {
  op: string;
  path?: string | undefined;
  value?: unknown;
}

/** The changes a PATCH asks for, in this service's words (the spec's field mapping). */
export interface ScimUserChanges {
  externUid?: string;
  name?: string;
  email?: string;
  username?: string;
  active?: boolean;
}

function requireText(value: unknown, path: string): string {
  if (typeof value !== 'string' || !value.trim()) throw new InputError(`${path} must be a non-empty string`);
  return value.trim();
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** Applies one attribute's new value to `changes`; attributes this service does not keep are ignored. */
function applyAttribute(changes: ScimUserChanges, path: string, value: unknown): void {
  const attribute = normaliseAttributePath(path);
  if (attribute === 'id' || attribute === 'externalid') changes.externUid = requireText(value, path);
  else if (attribute === 'username') changes.username = requireText(value, path);
  else if (attribute === 'name.formatted' || attribute === 'displayname') changes.name = requireText(value, path);
  else if (attribute === 'active') changes.active = scimBoolean(value, path);
  else if (isWorkEmailPath(attribute)) changes.email = requireText(value, path);
  else if (attribute === 'emails') {
    if (!Array.isArray(value) || !value.every(isObject)) throw new InputError(`${path} must be an array of emails`);
    changes.email = requireText(chooseEmail(value), path);
  } else if (attribute === 'name') {
    if (!isObject(value)) throw new InputError(`${path} must be an object`);
    const name = nameFrom(value);
    if (name !== undefined) changes.name = name;
  }
  // Identity providers also send attributes kept nowhere here (title, locale, enterprise
  // extension...); GitLab accepts and ignores them, and so does this service.
}

/**
 * Turns PATCH `Operations` into changes. `add` and `replace` set a value; `remove` is ignored, as
 * GitLab ignores it, because every attribute kept here is required. Without a `path`, the value is
 * an object of attribute paths and values (RFC 7644 §3.5.2).
 */
export function changesFromOperations(operations: ScimPatchOperation[]): ScimUserChanges {
  const changes: ScimUserChanges = {};
  operations.forEach((operation, index) => {
    const op = operation.op.toLowerCase();
    if (op === 'remove') return;
    if (op !== 'add' && op !== 'replace') throw new InputError(`Operations[${index}][op] does not have a valid value`);
    if (operation.path !== undefined && operation.path.trim() !== '') {
      applyAttribute(changes, operation.path, operation.value);
      return;
    }
    if (!isObject(operation.value)) throw new InputError(`Operations[${index}][value] must be an object when no path is given`);
    for (const [path, value] of Object.entries(operation.value)) applyAttribute(changes, path, value);
  });
  return changes;
}
