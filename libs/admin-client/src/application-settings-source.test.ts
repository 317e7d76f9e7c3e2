import { describe, expect, it } from '@jest/globals';
import { createLogger } from '@platform/logger';
import {
  AdminSettingsClient,
  applicationSettingsFeature,
  applicationSettingsSource,
  DEFAULT_APPLICATION_SETTINGS,
  FixedApplicationSettings,
} from './application-settings-source.ts';

const logger = createLogger({ name: 'test', level: 'silent' });
const options = { internalSecret: 'x'.repeat(16), service: 'test', kafkaBrokers: ['127.0.0.1:1'], topicPrefix: '', logger };

describe('application settings sources', () => {
  it("answers GitLab's defaults where no admin service is configured, and nothing to start", () => {
    const source = applicationSettingsSource({ ...options, address: undefined });
    expect(source.current()).toEqual(DEFAULT_APPLICATION_SETTINGS);
    expect(applicationSettingsFeature(source)).toEqual({});
  });

  it('keeps the newest settings it was told of, whichever arrives last', () => {
    const client = new AdminSettingsClient({ ...options, address: '127.0.0.1:1' });
    try {
      client.accept({ ...DEFAULT_APPLICATION_SETTINGS, revision: 3, signupEnabled: false });
      client.accept({ ...DEFAULT_APPLICATION_SETTINGS, revision: 2, signupEnabled: true });
      expect(client.current()).toMatchObject({ revision: 3, signupEnabled: false });
      client.accept({ ...DEFAULT_APPLICATION_SETTINGS, revision: 4, defaultProjectsLimit: 5 });
      expect(client.current()).toMatchObject({ revision: 4, signupEnabled: true, defaultProjectsLimit: 5 });
    } finally {
      void client.stop();
    }
  });

  it('lets tests change fixed settings', () => {
    const fixed = new FixedApplicationSettings({ rsaKeyRestriction: 2048 }).set({ signupEnabled: false });
    expect(fixed.current()).toMatchObject({ rsaKeyRestriction: 2048, signupEnabled: false, revision: 1 });
  });
});
