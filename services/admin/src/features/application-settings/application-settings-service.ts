import { isDeepStrictEqual } from 'node:util';
import { FieldValidationError, InputError } from '@platform/errors';
import type { EntityManager } from '@platform/db';
import type { EventActor } from '@platform/events';
import type { Logger } from '@platform/logger';
import type { ApplicationSetting } from './application-setting.entity.ts';
import type { ValueCipher } from '../ci-variables/value-cipher.ts';
import {
  DEPRECATED_ALIASES,
  isSecret,
  REQUIRED_WHEN_ENABLED,
  SETTING_NAMES,
  SETTINGS,
  type SettingName,
  type SettingValues,
} from './application-settings-catalogue.ts';
import type { ApplicationSettingsStore } from './application-settings-store.ts';
import { settingChangedEvents } from './application-settings.events.ts';
import type { ConfiguredRepositoryStorages } from './repository-storages.ts';

/**
 * The settings record with every setting's value: what was written, else the default; and the
 * repository storages review is configured with, null when it could not say.
 */
export interface CurrentSettings {
  record: ApplicationSetting;
  values: SettingValues;
  storages: string[] | null;
}

export function valuesOf(stored: Record<string, unknown>): SettingValues {
  return Object.fromEntries(SETTING_NAMES.map((name) => [name, name in stored ? stored[name] : SETTINGS[name].default])) as SettingValues;
}

/** The given settings by their current names; a deprecated alias counts unless its new name is given too. */
export function givenSettings(input: Record<string, unknown>): Partial<SettingValues> {
  const given: Partial<SettingValues> = {};
  for (const [alias, name] of Object.entries(DEPRECATED_ALIASES)) if (input[alias] !== undefined) given[name] = input[alias];
  for (const name of SETTING_NAMES) if (input[name] !== undefined) given[name] = input[name];
  return given;
}

const isBlank = (value: unknown) => value === null || value === '' || (Array.isArray(value) && value.length === 0);

/** Grape's `given ... requires`: turning a feature on needs its settings in the same request, not blank. */
export function checkRequired(given: Partial<SettingValues>): void {
  for (const [enabling, required] of Object.entries(REQUIRED_WHEN_ENABLED) as Array<[SettingName, SettingName[]]>) {
    if (given[enabling] !== true) continue;
    const missing = required.filter((name) => given[name] === undefined);
    if (missing.length > 0) throw new InputError(missing.map((name) => `${name} is missing`).join(', '));
    const blank = required.filter((name) => isBlank(given[name]));
    if (blank.length > 0) throw new FieldValidationError(Object.fromEntries(blank.map((name) => [name, ["can't be blank"]])));
  }
}

/** What GitLab's model checks across settings, on the values after the change. */
export function checkConsistency(values: SettingValues): void {
  const problems: Record<string, string[]> = {};
  const number = (name: SettingName) => values[name] as number;
  if (number('housekeeping_full_repack_period') < number('housekeeping_incremental_repack_period')) {
    problems.housekeeping_full_repack_period = ['must be greater than or equal to housekeeping_incremental_repack_period'];
  }
  if (number('housekeeping_gc_period') < number('housekeeping_full_repack_period')) {
    problems.housekeeping_gc_period = ['must be greater than or equal to housekeeping_full_repack_period'];
  }
  if (number('mirror_capacity_threshold') > number('mirror_max_capacity')) {
    problems.mirror_capacity_threshold = ["Project's mirror capacity threshold can't be higher than it's maximum capacity"];
  }
  if (Object.keys(problems).length > 0) throw new FieldValidationError(problems);
}

/** GitLab's check of the storage settings: they name configured storages only. */
export function checkStorages(given: Partial<SettingValues>, storages: string[]): void {
  const weighted = given.repository_storages_weighted as Record<string, number> | undefined;
  const named: Record<string, string[] | undefined> = {
    repository_storages: given.repository_storages as string[] | undefined,
    repository_storages_weighted: weighted && Object.keys(weighted),
  };
  const problems: Record<string, string[]> = {};
  for (const [name, listed] of Object.entries(named)) {
    const invalid = (listed ?? []).filter((storage) => !storages.includes(storage));
    if (invalid.length > 0) problems[name] = [`can't include: ${invalid.join(', ')}`];
  }
  if (Object.keys(problems).length > 0) throw new FieldValidationError(problems);
}

/**
 * The instance's application settings: read, and changed by administrators with one event per
 * changed setting. Secret settings are stored encrypted (the variables' cipher, the setting's
 * name as additional data); nothing answers them.
 */
export class ApplicationSettingsService {
  readonly #em: EntityManager;
  readonly #store: ApplicationSettingsStore;
  readonly #cipher: ValueCipher;
  readonly #storages: ConfiguredRepositoryStorages;
  readonly #logger: Logger;

  constructor(options: {
    em: EntityManager;
    store: ApplicationSettingsStore;
    cipher: ValueCipher;
    storages: ConfiguredRepositoryStorages;
    logger: Logger;
  }) {
    this.#em = options.em;
    this.#store = options.store;
    this.#cipher = options.cipher;
    this.#storages = options.storages;
    this.#logger = options.logger;
  }

  /** The stored value as given: a secret decrypted. */
  #plain(name: SettingName, stored: unknown): unknown {
    return isSecret(name) && typeof stored === 'string' ? this.#cipher.decrypt(stored, name) : stored;
  }

  /** The value to store: a secret encrypted. */
  #storable(name: SettingName, value: unknown): unknown {
    return isSecret(name) && typeof value === 'string' ? this.#cipher.encrypt(value, name) : value;
  }

  /** The configured storages; null while review cannot name them (the settings are still read, showing the written storage settings). */
  #storagesIfKnown(): Promise<string[] | null> {
    return this.#storages.names().catch((error: unknown) => {
      this.#logger.warn({ err: error }, 'repository storages not read from review');
      return null;
    });
  }

  async current(): Promise<CurrentSettings> {
    const record = await this.#store.read();
    return { record, values: valuesOf(record.settings), storages: await this.#storagesIfKnown() };
  }

  async update(options: { input: Record<string, unknown>; actor: EventActor }): Promise<CurrentSettings> {
    const given = givenSettings(options.input);
    checkRequired(given);
    // Storage settings are checked against review's storages, or refused while it cannot name them.
    const namesStorages = given.repository_storages !== undefined || given.repository_storages_weighted !== undefined;
    const storages = namesStorages ? await this.#storages.names() : await this.#storagesIfKnown();
    if (storages) checkStorages(given, storages);
    const record = await this.#em.transactional(() =>
      this.#store.change({
        actor: options.actor,
        change: (current, next) => {
          const stored = valuesOf(current.settings);
          const before = Object.fromEntries(SETTING_NAMES.map((name) => [name, this.#plain(name, stored[name])])) as SettingValues;
          const after = { ...before, ...given };
          checkConsistency(after);
          const changes = (Object.keys(given) as SettingName[])
            .filter((name) => !isDeepStrictEqual(before[name], after[name]))
            .map((name) => ({ name, from: before[name], to: after[name] }));
          if (changes.length === 0) return undefined;
          const settings = { ...current.settings };
          for (const { name, to } of changes) settings[name] = this.#storable(name, to);
          return { settings, events: settingChangedEvents({ changes, after, revision: next.revision }) };
        },
      }),
    );
    return { record, values: valuesOf(record.settings), storages };
  }
}
