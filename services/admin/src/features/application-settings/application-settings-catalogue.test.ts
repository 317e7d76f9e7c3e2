import { describe, expect, it } from '@jest/globals';
import { DEFAULT_APPLICATION_SETTINGS } from '@platform/admin-client';
import { valuesOf } from './application-settings-service.ts';
import { sharedSettings } from './application-settings.events.ts';
import { durationSeconds } from './setting-types.ts';

describe('the settings catalogue', () => {
  it('has the defaults other services assume before they read the settings', () => {
    expect(sharedSettings(valuesOf({}), 0)).toEqual(DEFAULT_APPLICATION_SETTINGS);
  });

  it('reads durations as GitLab does', () => {
    expect(durationSeconds('1 day')).toBe(86_400);
    expect(durationSeconds('2 weeks 3d')).toBe(2 * 604_800 + 3 * 86_400);
    expect(durationSeconds('90 min, 30 seconds')).toBe(5430);
    expect(durationSeconds('3600')).toBe(3600);
    expect(durationSeconds('1 fortnight')).toBeUndefined();
    expect(durationSeconds('soon')).toBeUndefined();
  });
});
