export { adminEvents, ADMIN_TOPIC } from './admin-events.ts';
export {
  adminClientConfig,
  AdminSettingsClient,
  applicationSettingsFeature,
  applicationSettingsSource,
  DEFAULT_APPLICATION_SETTINGS,
  FixedApplicationSettings,
} from './application-settings-source.ts';
export type { ApplicationSettings, ApplicationSettingsSource } from './application-settings-source.ts';
