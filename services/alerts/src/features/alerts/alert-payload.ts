/**
 * Incoming alert payloads read into what an alert records: the generic HTTP format (GitLab's
 * alert payload) and Alertmanager's webhook format. Extra properties, nested ones included, are
 * kept in `payload` as they came.
 */
import { createHash } from 'node:crypto';
import { InputError } from '@platform/errors';

export const SEVERITIES = ['critical', 'high', 'medium', 'low', 'info', 'unknown'] as const;
export type Severity = (typeof SEVERITIES)[number];

/** An alert as a payload describes it. */
export interface IncomingAlert {
  title: string;
  description: string | null;
  startedAt: Date;
  /** Set when the payload resolves the alert it matches. */
  endedAt: Date | null;
  severity: Severity;
  /** Tells occurrences of one alert apart from others: the payload's, or a digest of the payload itself. */
  fingerprint: string;
  monitoringTool: string | null;
  service: string | null;
  hosts: string[];
  environment: string | null;
  payload: Record<string, unknown>;
}

/** Properties that differ between occurrences of one alert, left out of the payload's digest. */
const OCCURRENCE_PROPERTIES = new Set(['start_time', 'end_time', 'hosts']);

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A scalar as text; objects and arrays are not text. */
function textOf(value: unknown): string | null {
  if (typeof value === 'string') return value.trim() === '' ? null : value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return null;
}

function timeOf(value: unknown): Date | null {
  if (typeof value !== 'string' && typeof value !== 'number') return null;
  const parsed = new Date(value);
  return Number.isNaN(parsed.getTime()) ? null : parsed;
}

/** JSON with object keys sorted, so that equal payloads have equal digests whatever their key order. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (isRecord(value)) {
    const keys = Object.keys(value).sort();
    return `{${keys.map((key) => `${JSON.stringify(key)}:${canonicalJson(value[key])}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

const sha1 = (text: string) => createHash('sha1').update(text).digest('hex');

function flattened(value: unknown): string[] {
  return Array.isArray(value) ? value.flatMap(flattened) : [isRecord(value) ? canonicalJson(value) : String(value)];
}

/** A string fingerprint as given; an array one hashed, as GitLab hashes it; none: the payload's digest. */
function fingerprintOf(payload: Record<string, unknown>): string {
  const given = payload.fingerprint;
  if (Array.isArray(given) && given.length > 0) return sha1(flattened(given).join(''));
  const text = textOf(given);
  if (text) return text;
  const compared = Object.fromEntries(Object.entries(payload).filter(([key]) => !OCCURRENCE_PROPERTIES.has(key)));
  return sha1(canonicalJson(compared));
}

function hostsOf(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(flattened).filter((host) => host !== '');
  const text = textOf(value);
  return text ? [text] : [];
}

function severityOf(value: unknown): Severity {
  const text = textOf(value)?.toLowerCase();
  return SEVERITIES.find((severity) => severity === text) ?? 'critical';
}

/** The generic format: `title` required; `start_time` defaults to receipt; `severity` defaults to critical. */
export function genericAlert(payload: unknown, receivedAt: Date): IncomingAlert {
  if (!isRecord(payload)) throw new InputError('The alert payload must be a JSON object');
  if (isRecord(payload.title) || Array.isArray(payload.title)) throw new InputError('title is invalid');
  const title = textOf(payload.title);
  if (!title) throw new InputError('title is missing');
  return {
    title: title.slice(0, 200),
    description: textOf(payload.description),
    startedAt: timeOf(payload.start_time) ?? receivedAt,
    endedAt: timeOf(payload.end_time),
    severity: severityOf(payload.severity),
    fingerprint: fingerprintOf(payload),
    monitoringTool: textOf(payload.monitoring_tool),
    service: textOf(payload.service),
    hosts: hostsOf(payload.hosts),
    environment: textOf(payload.svc_environment_name),
    payload,
  };
}

/** Alertmanager's severities (and common on-call spellings) in GitLab's six. */
const PROMETHEUS_SEVERITIES: Record<string, Severity> = {
  critical: 'critical',
  high: 'high',
  medium: 'medium',
  low: 'low',
  info: 'info',
  unknown: 'unknown',
  s1: 'critical',
  s2: 'high',
  s3: 'medium',
  s4: 'low',
  s5: 'info',
  p1: 'critical',
  p2: 'high',
  p3: 'medium',
  p4: 'low',
  p5: 'info',
  emergency: 'critical',
  fatal: 'critical',
  page: 'high',
  major: 'high',
  error: 'medium',
  alert: 'medium',
  warn: 'low',
  warning: 'low',
  minor: 'low',
  debug: 'info',
  information: 'info',
  notice: 'info',
};

function stringRecord(value: unknown): Record<string, string> {
  if (!isRecord(value)) return {};
  return Object.fromEntries(Object.entries(value).flatMap(([key, item]) => (typeof item === 'string' ? [[key, item]] : [])));
}

/** One alert of an Alertmanager notification; a resolved one carries its `endsAt`. */
function prometheusAlert(alert: unknown, receivedAt: Date): IncomingAlert {
  if (!isRecord(alert)) throw new InputError('alerts is invalid');
  const labels = stringRecord(alert.labels);
  const annotations = stringRecord(alert.annotations);
  const title = annotations.title ?? annotations.summary ?? labels.alertname;
  if (!title) throw new InputError('alerts is invalid: an alert has no title, summary or alertname');
  const resolved = alert.status === 'resolved';
  return {
    title: title.slice(0, 200),
    description: annotations.description ?? null,
    startedAt: timeOf(alert.startsAt) ?? receivedAt,
    endedAt: resolved ? (timeOf(alert.endsAt) ?? receivedAt) : null,
    severity: PROMETHEUS_SEVERITIES[(labels.severity ?? '').toLowerCase()] ?? 'critical',
    // Alertmanager's fingerprint identifies an alert by its labels; without one, so do we.
    fingerprint: textOf(alert.fingerprint) ?? sha1(canonicalJson(labels)),
    monitoringTool: 'Prometheus',
    service: labels.service ?? labels.job ?? null,
    hosts: labels.instance ? [labels.instance] : [],
    environment: labels.gitlab_environment_name ?? null,
    payload: alert,
  };
}

/** Alertmanager's webhook notification: each of its `alerts` is an alert. */
export function prometheusAlerts(notification: unknown, receivedAt: Date): IncomingAlert[] {
  if (!isRecord(notification)) throw new InputError('The alert payload must be a JSON object');
  if (!Array.isArray(notification.alerts)) throw new InputError('alerts is missing');
  return notification.alerts.map((alert) => prometheusAlert(alert, receivedAt));
}
