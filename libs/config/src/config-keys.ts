import { z } from 'zod';

/**
 * How a deployment (docker compose, Kubernetes) must treat a key:
 * - `required`: the process refuses to start without it;
 * - `set`: it starts without it, but a deployment names it, because the default only fits one
 *   machine (a loopback address) or the key carries the topology or the operator's choice
 *   (`setByDeployment`): where a peer listens, where Kafka is, who may scrape metrics;
 * - `optional`: the default fits a deployment.
 */
export type DeploymentNeed = 'required' | 'set' | 'optional';

export interface ConfigKey {
  name: string;
  need: DeploymentNeed;
  /** What the key becomes when unset (after parsing), undefined when it stays unset. */
  default: unknown;
  /** The key's `.describe()` text: what it is, for the README's configuration table. */
  description: string | undefined;
}

interface DeploymentMeta {
  setByDeployment?: boolean;
}

/**
 * Marks a key every deployment sets although the process starts without it (see
 * `DeploymentNeed`); the deployment test and the README's configuration table read the mark.
 */
export function setByDeployment<T extends z.ZodType>(schema: T): T {
  return schema.meta({ setByDeployment: true } satisfies DeploymentMeta) as T;
}

const LOOPBACK = /\b(127\.0\.0\.1|localhost)\b/;

const isLoopback = (value: unknown): boolean =>
  (typeof value === 'string' && LOOPBACK.test(value)) || (Array.isArray(value) && value.some(isLoopback));

/** Every key of a config schema, in declaration order, with what a deployment must do about it. */
export function configKeys(schema: z.ZodObject): ConfigKey[] {
  return Object.entries(schema.shape).map(([name, field]) => {
    const unset = field.safeParse(undefined);
    const fallback = unset.success ? unset.data : undefined;
    const meta = (field.meta() ?? {}) as DeploymentMeta;
    const need: DeploymentNeed = !unset.success ? 'required' : meta.setByDeployment || isLoopback(fallback) ? 'set' : 'optional';
    return { name, need, default: fallback, description: field.description };
  });
}
