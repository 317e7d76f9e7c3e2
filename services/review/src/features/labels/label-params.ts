import { z } from 'zod';
import { InputError } from '@platform/errors';

/** What creating a label takes, a project's or a group's. */
export const newLabelShape = {
  name: z.string().max(255),
  color: z.string().max(255),
  description: z.string().max(65_535).nullable().optional(),
};

/** What changing a label takes, a project's or a group's. */
export const labelChangeShape = {
  new_name: z.string().max(255).optional(),
  color: z.string().max(255).optional(),
  description: z.string().max(65_535).nullable().optional(),
};

/** GitLab's 400 when an update names none of `shape`'s fields: it lists them all. */
export function requireSomeChange<Input extends object>(input: Input, shape: object): void {
  const fields = Object.keys(shape);
  if (fields.every((field) => input[field as keyof Input] === undefined)) {
    throw new InputError(`${fields.join(', ')} are missing, at least one parameter must be provided`);
  }
}
