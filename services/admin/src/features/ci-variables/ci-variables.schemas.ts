import { z } from 'zod';
import { params } from '@platform/http';
import { VARIABLE_TYPES } from './ci-variable.entity.ts';

/** Grape's `type: String`: a number or boolean given in JSON is taken as its text. */
const text = () => z.union([z.string(), z.number(), z.boolean()]).transform(String);

const attributes = {
  variable_type: z.enum(VARIABLE_TYPES).optional(),
  protected: params.boolean().optional(),
  masked: params.boolean().optional(),
  raw: params.boolean().optional(),
  description: params.string(255).nullable().optional(),
};

export const variableKeyParams = z.object({ key: z.string().min(1).max(1024) });

/** Key and value rules beyond presence are GitLab's model validations (the service's). */
export const createVariableParams = z.object({ key: text(), value: text(), ...attributes });

export const updateVariableParams = variableKeyParams.extend({ value: text(), ...attributes });

export type CreateVariableParams = z.output<typeof createVariableParams>;
export type UpdateVariableParams = z.output<typeof updateVariableParams>;

/** `filter[environment_scope]`: which of a key's variables a read, update or delete means. */
const filter = z.object({ environment_scope: text().optional() }).optional();
const ownerId = { id: params.idOrPath() };
const environmentScope = { environment_scope: text().optional() };

/** A project's or group's variable by key. */
export const scopedVariableKeyParams = variableKeyParams.extend({ ...ownerId, filter });

export const createScopedVariableParams = createVariableParams.extend({ ...ownerId, ...environmentScope });

/** GitLab's update takes every attribute as optional, the value too. */
export const updateScopedVariableParams = scopedVariableKeyParams.extend({ value: text().optional(), ...attributes, ...environmentScope });

export const scopedVariableListParams = z.object(ownerId);
