import { FieldValidationError, NotFoundError } from '@platform/errors';
import type { EventActor, OutgoingEvent } from '@platform/events';
import type { EntityManager, Page, PageWindow } from '@platform/db';
import type { CiVariable, VariableType } from './ci-variable.entity.ts';
import type { CiVariableStore } from './ci-variables-store.ts';
import { variableCreated, variableDeleted, variableUpdated } from './ci-variables.events.ts';
import type { ValueCipher } from './value-cipher.ts';

const KEY_PATTERN = /^[a-zA-Z0-9_]+$/;
const MAX_KEY_LENGTH = 255;
const MAX_VALUE_LENGTH = 10_000;
/** GitLab's `Ci::Maskable`: masked values runners expand are 8+ characters of this alphabet. */
const MASKABLE = /^[a-zA-Z0-9_+=/@:.~-]{8,}$/;
/** A raw (unexpanded) masked value: 8+ characters on one line, without whitespace. */
const MASKABLE_RAW = /^\S{8,}$/;

/** A variable with its value in clear, as administrators read it. */
export interface VariableWithValue {
  variable: CiVariable;
  value: string;
}

export interface VariableAttributes {
  value: string;
  variableType?: VariableType | undefined;
  protected?: boolean | undefined;
  masked?: boolean | undefined;
  raw?: boolean | undefined;
  description?: string | null | undefined;
}

/** GitLab's model validations of a variable, as `{"message": {"key": [...]}}`. */
function validate(variable: { key?: string; value: string; masked: boolean; raw: boolean }): void {
  const problems: Record<string, string[]> = {};
  if (variable.key !== undefined) {
    const key: string[] = [];
    if (variable.key.length === 0) key.push("can't be blank");
    if (variable.key.length > MAX_KEY_LENGTH) key.push(`is too long (maximum is ${MAX_KEY_LENGTH} characters)`);
    if (variable.key.length > 0 && !KEY_PATTERN.test(variable.key)) key.push("can contain only letters, digits and '_'.");
    if (key.length > 0) problems.key = key;
  }
  const value: string[] = [];
  if (variable.value.length > MAX_VALUE_LENGTH)
    value.push(`The value of the provided variable exceeds the ${MAX_VALUE_LENGTH} character limit`);
  if (variable.masked && !(variable.raw ? MASKABLE_RAW : MASKABLE).test(variable.value)) value.push('is invalid');
  if (value.length > 0) problems.value = value;
  if (Object.keys(problems).length > 0) throw new FieldValidationError(problems);
}

/** Instance-level CI/CD variables: values encrypted at rest, a limited number of them, every change an event. */
export class CiVariablesService {
  readonly #em: EntityManager;
  readonly #store: CiVariableStore;
  readonly #cipher: ValueCipher;
  readonly #limit: number;

  constructor(options: { em: EntityManager; store: CiVariableStore; cipher: ValueCipher; limit: number }) {
    this.#em = options.em;
    this.#store = options.store;
    this.#cipher = options.cipher;
    this.#limit = options.limit;
  }

  #withValue(variable: CiVariable): VariableWithValue {
    return { variable, value: this.#cipher.decrypt(variable.encryptedValue, variable.key) };
  }

  async list(window: PageWindow): Promise<Page<VariableWithValue>> {
    const page = await this.#store.list(window);
    return { ...page, items: page.items.map((variable) => this.#withValue(variable)) };
  }

  async get(key: string): Promise<VariableWithValue> {
    const variable = await this.#store.find(key);
    if (!variable) throw new NotFoundError('Variable');
    return this.#withValue(variable);
  }

  async create(options: { key: string; attributes: VariableAttributes; actor: EventActor }): Promise<VariableWithValue> {
    const { key, attributes } = options;
    const masked = attributes.masked ?? false;
    const raw = attributes.raw ?? false;
    validate({ key, value: attributes.value, masked, raw });
    const now = new Date();
    const created = await this.#em.transactional(() =>
      this.#store.create({
        variable: {
          key,
          encryptedValue: this.#cipher.encrypt(attributes.value, key),
          variableType: attributes.variableType ?? 'env_var',
          protected: attributes.protected ?? false,
          masked,
          raw,
          description: attributes.description ?? null,
          createdAt: now,
          updatedAt: now,
        },
        check: ({ count, taken }) => {
          if (taken) throw new FieldValidationError({ key: [`(${key}) has already been taken`] });
          if (count >= this.#limit) {
            throw new FieldValidationError({ base: [`Maximum number of ci instance level variables (${this.#limit}) exceeded`] });
          }
        },
        events: (variable) => [variableCreated(variable)],
        actor: options.actor,
      }),
    );
    return { variable: created, value: attributes.value };
  }

  async update(options: { key: string; attributes: VariableAttributes; actor: EventActor }): Promise<VariableWithValue> {
    const { attributes } = options;
    const updated = await this.#em.transactional(() =>
      this.#store.update({
        key: options.key,
        actor: options.actor,
        change: (variable) => {
          const masked = attributes.masked ?? variable.masked;
          const raw = attributes.raw ?? variable.raw;
          validate({ value: attributes.value, masked, raw });
          const before = { ...variable };
          const valueChanged = this.#cipher.decrypt(variable.encryptedValue, variable.key) !== attributes.value;
          if (valueChanged) variable.encryptedValue = this.#cipher.encrypt(attributes.value, variable.key);
          variable.variableType = attributes.variableType ?? variable.variableType;
          variable.protected = attributes.protected ?? variable.protected;
          variable.masked = masked;
          variable.raw = raw;
          if (attributes.description !== undefined) variable.description = attributes.description;
          const events: OutgoingEvent[] = [];
          if (valueChanged) events.push(variableUpdated(variable, { attribute: 'value', from: '', to: '' }));
          for (const [attribute, field] of [
            ['variable_type', 'variableType'],
            ['protected', 'protected'],
            ['masked', 'masked'],
            ['raw', 'raw'],
            ['description', 'description'],
          ] as const) {
            if (before[field] !== variable[field]) {
              events.push(variableUpdated(variable, { attribute, from: String(before[field] ?? ''), to: String(variable[field] ?? '') }));
            }
          }
          if (events.length > 0) variable.updatedAt = new Date();
          return events;
        },
      }),
    );
    if (!updated) throw new NotFoundError('Variable');
    return { variable: updated, value: attributes.value };
  }

  async delete(options: { key: string; actor: EventActor }): Promise<void> {
    const deleted = await this.#em.transactional(() =>
      this.#store.delete({ key: options.key, actor: options.actor, events: (variable) => [variableDeleted(variable)] }),
    );
    if (!deleted) throw new NotFoundError('Variable');
  }
}
