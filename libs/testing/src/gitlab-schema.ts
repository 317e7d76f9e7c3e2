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
    // GitLab's own public.json spells one type `"string "`.
    result[NEUTRAL_NAMES[key] ?? key] = key === 'type' && typeof value === 'string' ? value.trim() : neutralise(value);
  }
  return result;
}

const ajv = new Ajv({ allErrors: true, strict: false });
addFormats.default(ajv);
const validators = new Map<string, ValidateFunction>();

function load(relativePath: string): ValidateFunction {
  const cached = validators.get(relativePath);
  if (cached) return cached;
  const loadFile = (file: string): void => {
    const id = path.relative(SCHEMA_ROOT, file);
    if (ajv.getSchema(id)) return;
    const schema = neutralise(JSON.parse(readFileSync(file, 'utf8'))) as Record<string, unknown>;
    ajv.addSchema({ ...schema, $id: id }, id);
    // Refs are relative file paths; load each one before compiling.
    const refs = JSON.stringify(schema).match(/"\$ref":"[^"]+"/g) ?? [];
    for (const ref of refs) {
      const target = ref.slice(8, -1).split('#')[0];
      if (target) loadFile(path.resolve(path.dirname(file), target));
    }
  };
  loadFile(path.join(SCHEMA_ROOT, relativePath));
  const validator = ajv.getSchema(relativePath);
  if (!validator) throw new Error(`no GitLab schema ${relativePath}`);
  validators.set(relativePath, validator);
  return validator;
}

/**
 * Problems of `body` against GitLab's schema at `relativePath` (e.g. `user/admin.json`); empty
 * when it validates. `optional` names fields the schema requires but the spec never mentions.
 */
export function gitlabSchemaErrors(relativePath: string, body: unknown, options: { optional?: string[] } = {}): string[] {
  const validate = load(relativePath);
  if (validate(body)) return [];
  const optional = new Set(options.optional ?? []);
  return (validate.errors ?? [])
    .filter((error) => !(error.keyword === 'required' && optional.has(String(error.params.missingProperty))))
    .map((error) => `${error.instancePath || '/'} ${error.message ?? ''}`);
}
