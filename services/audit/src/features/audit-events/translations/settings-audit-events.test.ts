import { randomUUID } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import { adminEvents } from '@platform/admin-client';
import type { EventEnvelope } from '@platform/events';
import { auditEventFor } from '../audit-event-translation.ts';

const root = { id: 1, username: 'root', name: 'Administrator', ip: '10.0.0.1' };

function envelope(event: { type: string; data: Record<string, unknown> }): EventEnvelope {
  return { id: randomUUID(), occurredAt: '2026-11-24T10:00:00.000Z', aggregateId: '1', actor: root, traceContext: {}, ...event };
}

describe('audit events of application settings', () => {
  it("records a change as the administrator's instance-level audit event with change, from and to", () => {
    const audited = auditEventFor(
      envelope(
        adminEvents.applicationSettingChanged.event({
          aggregateId: 1,
          data: { setting: 'default_project_visibility', from: '"private"', to: '"internal"', secret: false, settings: undefined },
        }),
      ),
    );
    expect(audited).toMatchObject({
      authorId: 1,
      entityType: 'User',
      entityId: 1,
      eventName: 'application_setting_updated',
      details: {
        change: 'default_project_visibility',
        from: 'private',
        to: 'internal',
        custom_message: 'Changed default_project_visibility from private to internal',
        author_name: 'Administrator',
        target_id: 1,
        target_type: 'ApplicationSetting',
        target_details: 'default_project_visibility',
        entity_path: 'root',
        ip_address: '10.0.0.1',
      },
    });
  });

  it('shows lists as JSON and a secret without values', () => {
    const list = auditEventFor(
      envelope(
        adminEvents.applicationSettingChanged.event({
          aggregateId: 1,
          data: { setting: 'import_sources', from: '["git"]', to: '["git","gitea"]', secret: false, settings: undefined },
        }),
      ),
    );
    expect(list?.details).toMatchObject({ from: '["git"]', to: '["git","gitea"]' });
    const secret = auditEventFor(
      envelope(
        adminEvents.applicationSettingChanged.event({
          aggregateId: 1,
          data: { setting: 'spamfilter_api_key', from: '', to: '', secret: true, settings: undefined },
        }),
      ),
    );
    expect(secret?.details).toMatchObject({ change: 'spamfilter_api_key', from: '', to: '', custom_message: 'Changed spamfilter_api_key' });
  });
});
