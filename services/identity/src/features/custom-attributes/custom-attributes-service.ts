import { FieldValidationError, NotFoundError } from '@platform/errors';
import type { UserStore } from '../users/users-store.ts';
import type { CustomAttribute } from './custom-attribute.entity.ts';
import type { CustomAttributeStore } from './custom-attributes-store.ts';

/** Administrators' key/value pairs on users; routes check that the caller is one. */
export class CustomAttributesService {
  readonly #attributes: CustomAttributeStore;
  readonly #users: UserStore;

  constructor(options: { attributes: CustomAttributeStore; users: UserStore }) {
    this.#attributes = options.attributes;
    this.#users = options.users;
  }

  async #userId(idOrUsername: string): Promise<number> {
    const user = await this.#users.findByIdOrUsername(idOrUsername);
    if (!user) throw new NotFoundError('User');
    return user.id;
  }

  async list(idOrUsername: string): Promise<CustomAttribute[]> {
    const userId = await this.#userId(idOrUsername);
    return (await this.#attributes.listFor([userId])).get(userId) ?? [];
  }

  /** The attributes of many users at once, for lists shown `with_custom_attributes`. */
  listFor(userIds: number[]): Promise<Map<number, CustomAttribute[]>> {
    return this.#attributes.listFor(userIds);
  }

  async get(idOrUsername: string, key: string): Promise<CustomAttribute> {
    const attribute = await this.#attributes.find(await this.#userId(idOrUsername), key);
    if (!attribute) throw new NotFoundError('Custom Attribute');
    return attribute;
  }

  async set(idOrUsername: string, attribute: { key: string; value: string }): Promise<CustomAttribute> {
    const problems: Record<string, string[]> = {};
    if (!attribute.key.trim()) problems.key = ["can't be blank"];
    if (!attribute.value.trim()) problems.value = ["can't be blank"];
    if (Object.keys(problems).length > 0) throw new FieldValidationError(problems);
    return this.#attributes.upsert(await this.#userId(idOrUsername), attribute);
  }

  async remove(idOrUsername: string, key: string): Promise<void> {
    if (!(await this.#attributes.remove(await this.#userId(idOrUsername), key))) throw new NotFoundError('Custom Attribute');
  }
}
