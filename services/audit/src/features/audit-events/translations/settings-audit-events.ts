import { adminEvents } from '@platform/admin-client';
import { onEvent } from '@platform/events';
import { instanceAuditEvent, type AuditTranslation } from './translation-helpers.ts';

/** The id of the instance's one application settings record. */
const APPLICATION_SETTINGS_ID = 1;

/** A value as the event carries it (JSON text), shown as text: `private` rather than `"private"`. */
function shown(json: string): string {
  try {
    const value: unknown = JSON.parse(json);
    if (value === null) return '';
    return typeof value === 'string' ? value : JSON.stringify(value);
  } catch {
    return json;
  }
}

/** Audit events of application settings changed by administrators. */
export const settingsAuditEvents: AuditTranslation[] = [
  onEvent(adminEvents.applicationSettingChanged, (data, event) => {
    const [from, to] = data.secret ? ['', ''] : [shown(data.from), shown(data.to)];
    return instanceAuditEvent(event, {
      eventName: 'application_setting_updated',
      target: { id: APPLICATION_SETTINGS_ID, type: 'ApplicationSetting', details: data.setting },
      action: {
        change: data.setting,
        from,
        to,
        custom_message: data.secret ? `Changed ${data.setting}` : `Changed ${data.setting} from ${from || 'nothing'} to ${to || 'nothing'}`,
      },
    });
  }),
];
