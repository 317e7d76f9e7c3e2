import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

export const VARIABLE_TYPES = ['env_var', 'file'] as const;
export type VariableType = (typeof VARIABLE_TYPES)[number];

/** An instance-level CI/CD variable; its value is kept encrypted (`ValueCipher`). */
export const CiVariable = defineEntity({
  name: 'CiVariable',
  tableName: 'ci_variables',
  properties: {
    id: p.bigint('number').primary().autoincrement(),
    key: p.text(),
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
