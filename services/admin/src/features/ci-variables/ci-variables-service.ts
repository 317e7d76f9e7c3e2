import { ConflictError, FieldValidationError, NotFoundError } from '@platform/errors';
import type { EventActor, OutgoingEvent } from '@platform/events';
import type { EntityManager, Page, PageWindow } from '@platform/db';
import type { CiVariable, VariableOwner, VariableType } from './ci-variable.entity.ts';
import type { CiVariableStore, VariableSelector } from './ci-variables-store.ts';
import { variableCreated, variableDeleted, variableUpdated } from './ci-variables.events.ts';
import type { ValueCipher } from './value-cipher.ts';

const KEY_PATTERN = /^[a-zA-Z0-9_]+$/;
const MAX_KEY_LENGTH = 255;
const MAX_VALUE_LENGTH = 10_000;
const MAX_SCOPE_LENGTH = 255;
/** GitLab's `Ci::Maskable`: masked values runners expand are 8+ characters of this alphabet. */
const MASKABLE = /^[a-zA-Z0-9_+=/@:.~-]{8,}$/;
/** A raw (unexpanded) masked value: 8+ characters on one line, without whitespace. */
const MASKABLE_RAW = /^\S{8,}$/;
/** GitLab's environment scope: an environment name that may hold `*` wildcards. */
const SCOPE_PATTERN = /^[a-zA-Z0-9 _/${}.*-]+$/;
const ALL_ENVIRONMENTS = '*';
const INSTANCE: VariableOwner = { type: 'instance', id: 0 };
const MULTIPLE_MATCHES = "There are multiple variables with provided parameters. Please use 'filter[environment_scope]'";

/** A variable with its value in clear, as those who manage it read it. */
export interface VariableWithValue {
  variable: CiVariable;
  value: string;
}

export interface VariableAttributes {
  value?: string | undefined;
  variableType?: VariableType | undefined;
  protected?: boolean | undefined;
  masked?: boolean | undefined;
  raw?: boolean | undefined;
  description?: string | null | undefined;
  /** A project's variable only. */
  environmentScope?: string | undefined;
}

/** Which variable a read, update or delete means: the instance's by key, or an owner's with an optional scope filter. */
export interface VariableTarget {
  owner?: VariableOwner;
  key: string;
  environmentScope?: string | undefined;
}

/** GitLab's model validations of a variable, as `{"message": {"key": [...]}}`. */
function validate(variable: { key?: string; value: string; masked: boolean; raw: boolean; environmentScope?: string }): void {
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
  if (variable.environmentScope !== undefined) {
    const scope: string[] = [];
    if (variable.environmentScope.length > MAX_SCOPE_LENGTH) scope.push(`is too long (maximum is ${MAX_SCOPE_LENGTH} characters)`);
    if (!SCOPE_PATTERN.test(variable.environmentScope)) {
      scope.push("can contain only letters, digits, '-', '_', '/', '$', '{', '}', '.', '*' and spaces");
    }
    if (scope.length > 0) problems.environment_scope = scope;
  }
  if (Object.keys(problems).length > 0) throw new FieldValidationError(problems);
}

/** The one variable of several matches, or GitLab's conflict asking for a scope filter. */
function onlyOf(variables: CiVariable[]): CiVariable {
  if (variables.length > 1) throw new ConflictError(MULTIPLE_MATCHES);
  const [variable] = variables;
  if (!variable) throw new NotFoundError('Variable');
  return variable;
}

/**
 * CI/CD variables of the instance, projects and groups: values encrypted at rest, the instance's
 * limited in number, a project's unique by key and environment scope, every change an event
 * (audited, never with a value).
 */
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

  /**
   * The additional data a value is encrypted with: an instance variable's key, an owner's kind, id
   * and key otherwise, so a value copied to another owner's row fails to decrypt.
   */
  static #contextOf(variable: { ownerType: string; ownerId: number; key: string }): string {
    return variable.ownerType === 'instance' ? variable.key : `${variable.ownerType}:${variable.ownerId}:${variable.key}`;
  }

  #withValue(variable: CiVariable): VariableWithValue {
    return { variable, value: this.#cipher.decrypt(variable.encryptedValue, CiVariablesService.#contextOf(variable)) };
  }

  static #selectorOf(target: VariableTarget): VariableSelector {
    return { owner: target.owner ?? INSTANCE, key: target.key, environmentScope: target.environmentScope };
  }

  async list(window: PageWindow, owner: VariableOwner = INSTANCE): Promise<Page<VariableWithValue>> {
    const page = await this.#store.list(owner, window);
    return { ...page, items: page.items.map((variable) => this.#withValue(variable)) };
  }

  async get(target: VariableTarget): Promise<VariableWithValue> {
    return this.#withValue(onlyOf(await this.#store.find(CiVariablesService.#selectorOf(target))));
  }

  async create(options: {
    owner?: VariableOwner;
    key: string;
    attributes: VariableAttributes;
    actor: EventActor;
  }): Promise<VariableWithValue> {
    const { key, attributes } = options;
    const owner = options.owner ?? INSTANCE;
    const value = attributes.value ?? '';
    const masked = attributes.masked ?? false;
    const raw = attributes.raw ?? false;
    const environmentScope = owner.type === 'project' ? (attributes.environmentScope ?? ALL_ENVIRONMENTS) : ALL_ENVIRONMENTS;
    validate({ key, value, masked, raw, environmentScope });
    const now = new Date();
    const created = await this.#em.transactional(() =>
      this.#store.create({
        variable: {
          ownerType: owner.type,
          ownerId: owner.id,
          key,
          environmentScope,
          encryptedValue: this.#cipher.encrypt(value, CiVariablesService.#contextOf({ ownerType: owner.type, ownerId: owner.id, key })),
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
          if (owner.type === 'instance' && count >= this.#limit) {
            throw new FieldValidationError({ base: [`Maximum number of ci instance level variables (${this.#limit}) exceeded`] });
          }
        },
        events: (variable) => [variableCreated(variable, owner)],
        actor: options.actor,
      }),
    );
    return { variable: created, value };
  }

  async update(options: { target: VariableTarget; attributes: VariableAttributes; actor: EventActor }): Promise<VariableWithValue> {
    const { attributes } = options;
    const owner = options.target.owner ?? INSTANCE;
    let value = '';
    const updated = await this.#em.transactional(() =>
      this.#store.update({
        selector: CiVariablesService.#selectorOf(options.target),
        actor: options.actor,
        change: (variables) => {
          const variable = onlyOf(variables);
          const context = CiVariablesService.#contextOf(variable);
          const current = this.#cipher.decrypt(variable.encryptedValue, context);
          value = attributes.value ?? current;
          const masked = attributes.masked ?? variable.masked;
          const raw = attributes.raw ?? variable.raw;
          const environmentScope =
            variable.ownerType === 'project' ? (attributes.environmentScope ?? variable.environmentScope) : variable.environmentScope;
          validate({ value, masked, raw, environmentScope });
          const before = { ...variable };
          const valueChanged = current !== value;
          if (valueChanged) variable.encryptedValue = this.#cipher.encrypt(value, context);
          variable.variableType = attributes.variableType ?? variable.variableType;
          variable.protected = attributes.protected ?? variable.protected;
          variable.masked = masked;
          variable.raw = raw;
          variable.environmentScope = environmentScope;
          if (attributes.description !== undefined) variable.description = attributes.description;
          const events: OutgoingEvent[] = [];
          if (valueChanged) events.push(variableUpdated(variable, { owner, change: { attribute: 'value', from: '', to: '' } }));
          for (const [attribute, field] of [
            ['variable_type', 'variableType'],
            ['protected', 'protected'],
            ['masked', 'masked'],
            ['raw', 'raw'],
            ['description', 'description'],
            ['environment_scope', 'environmentScope'],
          ] as const) {
            if (before[field] !== variable[field]) {
              const change = { attribute, from: String(before[field] ?? ''), to: String(variable[field] ?? '') };
              events.push(variableUpdated(variable, { owner, change }));
            }
          }
          if (events.length > 0) variable.updatedAt = new Date();
          return { changed: variable, events };
        },
      }),
    );
    if (!updated) throw new NotFoundError('Variable');
    return { variable: updated, value };
  }

  async delete(options: { target: VariableTarget; actor: EventActor }): Promise<void> {
    const deleted = await this.#em.transactional(() =>
      this.#store.delete({
        selector: CiVariablesService.#selectorOf(options.target),
        pick: (variables) => (variables.length === 0 ? null : onlyOf(variables)),
        actor: options.actor,
        events: (variable) => [variableDeleted(variable, options.target.owner ?? INSTANCE)],
      }),
    );
    if (!deleted) throw new NotFoundError('Variable');
  }
}
