import type { EntityManager } from '@platform/db';
import type { EventActor, OutgoingEvent } from '@platform/events';
import { recordEvent } from '@platform/events/database';
import { ApplicationSetting } from './application-setting.entity.ts';

/** The id of the instance's one settings record. */
export const SETTINGS_ID = 1;

/** What a change writes: the settings as stored after it, and its events. */
export interface SettingsChange {
  settings: Record<string, unknown>;
  events: OutgoingEvent[];
}

export interface ApplicationSettingsStore {
  read(): Promise<ApplicationSetting>;
  /**
   * In the caller's transaction, runs `change` on the record locked against concurrent changes,
   * then stores what it answers with the next revision and its events; nothing when it answers undefined.
   */
  change(options: {
    actor: EventActor;
    change: (current: ApplicationSetting, next: { revision: number; now: Date }) => SettingsChange | undefined;
  }): Promise<ApplicationSetting>;
}

export class PgApplicationSettingsStore implements ApplicationSettingsStore {
  readonly #em: EntityManager;

  constructor(em: EntityManager) {
    this.#em = em;
  }

  read(): Promise<ApplicationSetting> {
    return this.#em.findOneOrFail(ApplicationSetting, { id: SETTINGS_ID });
  }

  async change(options: {
    actor: EventActor;
    change: (current: ApplicationSetting, next: { revision: number; now: Date }) => SettingsChange | undefined;
  }): Promise<ApplicationSetting> {
    const em = this.#em;
    await em.execute('select id from application_settings where id = ? for update', [SETTINGS_ID]);
    const current = await em.findOneOrFail(ApplicationSetting, { id: SETTINGS_ID }, { refresh: true });
    const now = new Date();
    const changed = options.change(current, { revision: current.revision + 1, now });
    if (!changed) return current;
    current.settings = changed.settings;
    current.revision += 1;
    current.updatedAt = now;
    for (const event of changed.events) recordEvent(em, { ...event, actor: options.actor });
    return current;
  }
}
