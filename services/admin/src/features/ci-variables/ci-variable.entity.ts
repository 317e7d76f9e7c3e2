import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

export const VARIABLE_TYPES = ['env_var', 'file'] as const;
export type VariableType = (typeof VARIABLE_TYPES)[number];

export const VARIABLE_OWNER_TYPES = ['instance', 'project', 'group'] as const;
export type VariableOwnerType = (typeof VARIABLE_OWNER_TYPES)[number];

/** Whose variable it is: the instance's (id 0), a project's or a group's. */
export interface VariableOwner {
  type: VariableOwnerType;
  id: number;
  /** The group's full path or the project's path with its namespace, as events name them; none for the instance. */
  fullPath?: string;
}

/** A CI/CD variable of the instance, a project or a group; its value is kept encrypted (`ValueCipher`). */
export const CiVariable = defineEntity({
  name: 'CiVariable',
  tableName: 'ci_variables',
  properties: {
    id: p.bigint('number').primary().autoincrement(),
    ownerType: p.enum(VARIABLE_OWNER_TYPES),
    /** The project's or group's id; 0 for the instance's variables. */
    ownerId: p.bigint('number'),
    key: p.text(),
    /** The environments a project's variable applies to; `*` for all (and always, elsewhere). */
    environmentScope: p.text(),
    encryptedValue: p.text(),
    variableType: p.enum(VARIABLE_TYPES),
    protected: p.boolean(),
    masked: p.boolean(),
    /** Expanded by runners unless raw. */
    raw: p.boolean(),
    description: p.text().nullable(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  },
});
export type CiVariable = InferEntity<typeof CiVariable>;
