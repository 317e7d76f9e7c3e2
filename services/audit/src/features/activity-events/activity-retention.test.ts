import { describe, expect, it } from '@jest/globals';
import { retentionCutoff } from './activity-retention.ts';

describe('activity retention', () => {
  it('keeps two years of events', () => {
    expect(retentionCutoff(new Date('2026-11-24T13:00:00.000Z'))).toEqual(new Date('2024-11-24T13:00:00.000Z'));
  });
});
