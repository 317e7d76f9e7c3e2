import { DEPRECATED_ALIASES, isSecret, SETTING_NAMES } from './application-settings-catalogue.ts';
import type { CurrentSettings } from './application-settings-service.ts';

/**
 * GitLab's application settings body: `id`, every setting but the secret ones, the deprecated
 * aliases beside their new names (clients still read them), `created_at` and `updated_at`.
 */
export function settingsView({ record, values }: CurrentSettings): Record<string, unknown> {
  const body: Record<string, unknown> = { id: record.id };
  for (const name of SETTING_NAMES) if (!isSecret(name)) body[name] = values[name];
  for (const [alias, name] of Object.entries(DEPRECATED_ALIASES)) body[alias] = values[name];
  body.created_at = record.createdAt.toISOString();
  body.updated_at = record.updatedAt.toISOString();
  return body;
}
