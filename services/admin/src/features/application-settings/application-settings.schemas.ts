import { z } from 'zod';
import { DEPRECATED_ALIASES, SETTINGS, type SettingDefinition } from './application-settings-catalogue.ts';

const optionalSettings = Object.fromEntries(
  Object.entries(SETTINGS as Record<string, SettingDefinition>).map(([name, definition]) => [name, definition.schema.optional()]),
);
const optionalAliases = Object.fromEntries(
  Object.entries(DEPRECATED_ALIASES).map(([alias, name]) => [alias, (SETTINGS[name] as SettingDefinition).schema.optional()]),
);

/** `PUT /application/settings`: any settings, by their names or deprecated aliases, as query or body parameters. */
export const settingsUpdateParams = z.object({ ...optionalSettings, ...optionalAliases });

export type SettingsUpdateParams = z.output<typeof settingsUpdateParams>;
