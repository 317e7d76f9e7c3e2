import { DEPRECATED_ALIASES, isSecret, SETTING_NAMES, type SettingValues } from './application-settings-catalogue.ts';
import type { CurrentSettings } from './application-settings-service.ts';

/**
 * The storage settings as GitLab answers them, the configuration being their source of truth:
 * every configured storage weighed (0 when not weighed), and every one listed unless
 * `repository_storages` was written.
 */
function storageSettings({ record, values, storages }: CurrentSettings): Partial<SettingValues> {
  if (!storages) return {};
  const weights = values.repository_storages_weighted as Record<string, number>;
  return {
    repository_storages: 'repository_storages' in record.settings ? values.repository_storages : storages,
    repository_storages_weighted: Object.fromEntries(storages.map((storage) => [storage, weights[storage] ?? 0])),
  };
}

/**
 * GitLab's application settings body: `id`, every setting but the secret ones, the deprecated
 * aliases beside their new names (clients still read them), `created_at` and `updated_at`.
 */
export function settingsView(current: CurrentSettings): Record<string, unknown> {
  const { record } = current;
  const values = { ...current.values, ...storageSettings(current) };
  const body: Record<string, unknown> = { id: record.id };
  for (const name of SETTING_NAMES) if (!isSecret(name)) body[name] = values[name];
  for (const [alias, name] of Object.entries(DEPRECATED_ALIASES)) body[alias] = values[name];
  body.created_at = record.createdAt.toISOString();
  body.updated_at = record.updatedAt.toISOString();
  return body;
}
