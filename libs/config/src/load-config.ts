import { z } from 'zod';

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/**
 * Reads the environment once into a typed object. The schema's keys are the variable names,
 * so a failure names the variable to fix.
 */
export function loadConfig<Shape extends z.ZodRawShape>(
  schema: Shape | z.ZodObject<Shape>,
  env: Record<string, string | undefined> = process.env,
): z.infer<z.ZodObject<Shape>> {
  const object = schema instanceof z.ZodObject ? schema : z.object(schema);
  const result = object.safeParse(env);
  if (!result.success) {
    const problems = result.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration: ${problems.join('; ')}`);
  }
  return result.data as z.infer<z.ZodObject<Shape>>;
}

/** `true`/`false`/`1`/`0` as environment variables spell booleans. */
export const booleanFromEnv = z.enum(['true', 'false', '1', '0']).transform((value) => value === 'true' || value === '1');

/** A comma-separated list, blanks dropped. */
export const listFromEnv = z.string().transform((value) =>
  value
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item.length > 0),
);
