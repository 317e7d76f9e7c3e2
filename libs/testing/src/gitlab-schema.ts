import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';

const SCHEMA_ROOT = path.resolve(import.meta.dirname, '../gitlab-schemas');

/** The platform's words for fields GitLab names after third-party brands. */
const NEUTRAL_NAMES: Record<string, string> = {
  skype: 'messenger_id',
  linkedin: 'professional_profile',
  twitter: 'social_handle',
};

/**
 * Renames branded fields, drops enums of identity providers (GitLab's list names brands;
 * ours are `group_saml`, `ldapmain` and the like) and mends one stray space in a type name.
 */
function neutralise(node: unknown): unknown {
  if (Array.isArray(node)) return node.map((item) => (typeof item === 'string' ? (NEUTRAL_NAMES[item] ?? item) : neutralise(item)));
  if (node === null || typeof node !== 'object') return node;
  const result: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === 'provider' && typeof value === 'object' && value !== null && 'enum' in value) {
      result[key] = { type: 'string' };
      continue;
    }
    // GitLab's own public.json spells one type `"string "`; its lists type timestamps and URLs
    // `"date"` and `"uri"`, which the Ruby validator GitLab uses takes for strings.
    result[NEUTRAL_NAMES[key] ?? key] = key === 'type' ? typesOf(value) : neutralise(value);
  }
  return result;
}

/** A type, or a list of types (`["date", "null"]`), with GitLab's names mended. */
function typesOf(type: unknown): unknown {
  // A bare `"date"` is a type the Ruby validator does not know, so it lets anything through: GitLab
  // answers null there (an open issue's `closed_at`). Kept to a string or null.
  if (typeof type === 'string') return type.trim() === 'date' ? ['string', 'null'] : typeName(type);
  return Array.isArray(type) ? type.map((item) => (typeof item === 'string' ? typeName(item) : item)) : neutralise(type);
}

function typeName(type: string): string {
  const trimmed = type.trim();
  return trimmed === 'date' || trimmed === 'uri' ? 'string' : trimmed;
}

const ajv = new Ajv({ allErrors: true, strict: false });
addFormats.default(ajv);
const validators = new Map<string, ValidateFunction>();

/** Where GitLab keeps the v4 schemas, and the schemas outside v4 (kept here under `_outside_v4`). */
const GITLAB_V4 = '/schemas/public_api/v4';
const GITLAB_SCHEMAS = '/schemas';
const OUTSIDE_V4 = '_outside_v4';

/** A stored schema's place in GitLab's tree, so that its relative `$ref`s resolve as they do there. */
function gitlabPlaceOf(relativePath: string): string {
  return relativePath.startsWith(`${OUTSIDE_V4}/`)
    ? path.posix.join(GITLAB_SCHEMAS, relativePath.slice(OUTSIDE_V4.length + 1))
    : path.posix.join(GITLAB_V4, relativePath);
}

/**
 * Refs to schemas GitLab's tree lacks, and the stored schema the reference INDEX names as the
 * closest match: legacy feature flag scopes name a v4 `feature_flag_strategy.json` that does not exist.
 */
const SUBSTITUTES: Record<string, string> = {
  'feature_flag_strategy.json': `${OUTSIDE_V4}/feature_flag_strategy.json`,
};

/** The stored file a `$ref` names, from the schema that holds it (see the reference INDEX). */
function storedPathOf(ref: string, from: string): string {
  const place = path.posix.resolve(path.posix.dirname(gitlabPlaceOf(from)), ref);
  const stored = place.startsWith(`${GITLAB_V4}/`)
    ? place.slice(GITLAB_V4.length + 1)
    : path.posix.join(OUTSIDE_V4, place.slice(GITLAB_SCHEMAS.length + 1));
  return SUBSTITUTES[stored] ?? stored;
}

/** Schemas are registered under absolute ids, their `$ref`s rewritten to them, so that ajv needs no relative resolution. */
const idOf = (relativePath: string) => `gitlab:${relativePath}`;

function load(relativePath: string): ValidateFunction {
  const cached = validators.get(relativePath);
  if (cached) return cached;
  const loadFile = (stored: string): void => {
    if (ajv.getSchema(idOf(stored))) return;
    const text = readFileSync(path.join(SCHEMA_ROOT, stored), 'utf8');
    const targets: string[] = [];
    const rewritten = text.replace(/("\$ref"\s*:\s*")([^"#]*)(#[^"]*)?"/g, (_match, prefix: string, file: string, fragment = '') => {
      if (!file) return `${prefix}${fragment}"`;
      const target = storedPathOf(file, stored);
      targets.push(target);
      return `${prefix}${idOf(target)}${fragment}"`;
    });
    const schema = neutralise(JSON.parse(rewritten)) as Record<string, unknown>;
    ajv.addSchema({ ...schema, $id: idOf(stored) }, idOf(stored));
    for (const target of targets) loadFile(target);
  };
  loadFile(relativePath);
  const validator = ajv.getSchema(idOf(relativePath));
  if (!validator) throw new Error(`no GitLab schema ${relativePath}`);
  validators.set(relativePath, validator);
  return validator;
}

/**
 * Problems of `body` against GitLab's schema at `relativePath` (e.g. `user/admin.json`); empty
 * when it validates. `optional` names fields the schema requires but the spec never mentions;
 * `added` names fields the spec adds where the schema allows no others.
 */
export function gitlabSchemaErrors(relativePath: string, body: unknown, options: { optional?: string[]; added?: string[] } = {}): string[] {
  const validate = load(relativePath);
  if (validate(body)) return [];
  const optional = new Set(options.optional ?? []);
  const added = new Set(options.added ?? []);
  return (validate.errors ?? [])
    .filter((error) => !(error.keyword === 'required' && optional.has(String(error.params.missingProperty))))
    .filter((error) => !(error.keyword === 'additionalProperties' && added.has(String(error.params.additionalProperty))))
    .map((error) => `${error.instancePath || '/'} ${error.message ?? ''}`);
}
