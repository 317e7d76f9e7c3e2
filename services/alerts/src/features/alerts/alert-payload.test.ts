import { describe, expect, it } from '@jest/globals';
import { InputError } from '@platform/errors';
import { genericAlert, prometheusAlerts } from './alert-payload.ts';

const receivedAt = new Date('2026-11-24T12:00:00Z');

describe('the generic alert payload', () => {
  it('requires a title, and says so as Grape does', () => {
    expect(() => genericAlert({ description: 'x' }, receivedAt)).toThrow(new InputError('title is missing'));
    expect(() => genericAlert({ title: '   ' }, receivedAt)).toThrow(new InputError('title is missing'));
    expect(() => genericAlert({ title: { text: 'x' } }, receivedAt)).toThrow(new InputError('title is invalid'));
    expect(() => genericAlert(['title'], receivedAt)).toThrow(InputError);
  });

  it('defaults start_time to receipt and severity to critical, and takes severity in any case', () => {
    const alert = genericAlert({ title: 'T' }, receivedAt);
    expect(alert).toMatchObject({ startedAt: receivedAt, endedAt: null, severity: 'critical', hosts: [], environment: null });
    expect(genericAlert({ title: 'T', severity: 'Info' }, receivedAt).severity).toBe('info');
    expect(genericAlert({ title: 'T', severity: 'loud' }, receivedAt).severity).toBe('critical');
    expect(genericAlert({ title: 'T', start_time: 'yesterday' }, receivedAt).startedAt).toEqual(receivedAt);
  });

  it('takes hosts and fingerprint as a string or an array; an array fingerprint is hashed', () => {
    expect(genericAlert({ title: 'T', hosts: 'web-1' }, receivedAt).hosts).toEqual(['web-1']);
    expect(genericAlert({ title: 'T', hosts: ['web-1', ['web-2']] }, receivedAt).hosts).toEqual(['web-1', 'web-2']);
    expect(genericAlert({ title: 'T', fingerprint: 'abc' }, receivedAt).fingerprint).toBe('abc');
    const hashed = genericAlert({ title: 'T', fingerprint: ['a', 1] }, receivedAt).fingerprint;
    expect(hashed).toMatch(/^[0-9a-f]{40}$/);
    expect(genericAlert({ title: 'Other', fingerprint: ['a', 1] }, receivedAt).fingerprint).toBe(hashed);
  });

  it('fingerprints a payload without one by its content, occurrence times and hosts aside, whatever the key order', () => {
    const first = genericAlert({ title: 'T', start_time: '2026-01-01T00:00:00Z', hosts: 'a', extra: { b: 1, a: 2 } }, receivedAt);
    const again = genericAlert({ extra: { a: 2, b: 1 }, hosts: ['b'], end_time: '2026-01-02T00:00:00Z', title: 'T' }, receivedAt);
    const other = genericAlert({ title: 'T', extra: { a: 3, b: 1 } }, receivedAt);
    expect(again.fingerprint).toBe(first.fingerprint);
    expect(other.fingerprint).not.toBe(first.fingerprint);
  });
});

describe("Alertmanager's notification", () => {
  const firing = {
    status: 'firing',
    labels: { alertname: 'DiskFull', severity: 'warning', instance: 'db-1:9100', job: 'node' },
    annotations: { summary: 'Disk almost full', description: 'Less than 5% left' },
    startsAt: '2026-11-24T11:00:00Z',
    endsAt: '0001-01-01T00:00:00Z',
    fingerprint: 'c0ffee',
  };

  it('reads each alert: title from the annotations or the alert name, severity mapped, resolved ones with their end', () => {
    const [alert, resolved] = prometheusAlerts(
      { version: '4', status: 'firing', alerts: [firing, { ...firing, status: 'resolved', endsAt: '2026-11-24T11:30:00Z' }] },
      receivedAt,
    );
    expect(alert).toMatchObject({
      title: 'Disk almost full',
      description: 'Less than 5% left',
      severity: 'low',
      startedAt: new Date('2026-11-24T11:00:00Z'),
      endedAt: null,
      fingerprint: 'c0ffee',
      monitoringTool: 'Prometheus',
      service: 'node',
      hosts: ['db-1:9100'],
      payload: firing,
    });
    expect(resolved?.endedAt).toEqual(new Date('2026-11-24T11:30:00Z'));
    const [named] = prometheusAlerts({ alerts: [{ labels: { alertname: 'Down' } }] }, receivedAt);
    expect(named).toMatchObject({ title: 'Down', severity: 'critical' });
  });

  it('refuses a body that is no notification', () => {
    expect(() => prometheusAlerts({ title: 'x' }, receivedAt)).toThrow(new InputError('alerts is missing'));
    expect(() => prometheusAlerts({ alerts: [{ labels: {} }] }, receivedAt)).toThrow(InputError);
  });
});
