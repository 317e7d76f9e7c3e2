import { FieldValidationError, NotFoundError } from '@platform/errors';
import type { CustomAttribute } from './custom-attribute.entity.ts';
import type { CustomAttributeStore } from './custom-attributes-store.ts';

/**
 * Administrators' key/value pairs on one kind of owner. `Owner` is how callers name one (a
 * user's id or username; a group or project with the viewer asking), `ownerId` resolves it and
 * checks the caller may manage its attributes.
 */
export class CustomAttributesService<Owner = string> {
  readonly #attributes: CustomAttributeStore;
  readonly #ownerId: (owner: Owner) => Promise<number>;

  constructor(options: { attributes: CustomAttributeStore; ownerId: (owner: Owner) => Promise<number> }) {
    this.#attributes = options.attributes;
    this.#ownerId = options.ownerId;
  }

  async list(owner: Owner): Promise<CustomAttribute[]> {
    const ownerId = await this.#ownerId(owner);
    return (await this.#attributes.listFor([ownerId])).get(ownerId) ?? [];
  }

  /** The attributes of many owners at once, for lists shown `with_custom_attributes`. */
  listFor(ownerIds: number[]): Promise<Map<number, CustomAttribute[]>> {
    return this.#attributes.listFor(ownerIds);
  }

  async get(owner: Owner, key: string): Promise<CustomAttribute> {
    const attribute = await this.#attributes.find(await this.#ownerId(owner), key);
    if (!attribute) throw new NotFoundError('Custom Attribute');
    return attribute;
  }

  async set(owner: Owner, attribute: { key: string; value: string }): Promise<CustomAttribute> {
    const problems: Record<string, string[]> = {};
    if (!attribute.key.trim()) problems.key = ["can't be blank"];
    if (!attribute.value.trim()) problems.value = ["can't be blank"];
    if (Object.keys(problems).length > 0) throw new FieldValidationError(problems);
    return this.#attributes.upsert(await this.#ownerId(owner), attribute);
  }

  async remove(owner: Owner, key: string): Promise<void> {
    if (!(await this.#attributes.remove(await this.#ownerId(owner), key))) throw new NotFoundError('Custom Attribute');
  }
}
