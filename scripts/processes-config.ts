/**
 * How many processes of each service `npm start` runs side by side, and the benchmarks with it:
 * `<SERVICE>_PROCESSES`, e.g. `IDENTITY_PROCESSES=3`. A service process runs its JavaScript on one
 * core; several processes of a service listen on ports of their own, the gateway balances requests
 * between their addresses and gRPC clients their calls, as between a Deployment's replicas in
 * Kubernetes. The defaults are what the benchmark served best with on a 2-core machine
 * (`docs/read-path.md`, "Both cores"): one identity process, since there the gateway and
 * PostgreSQL already keep the second core busy and every process added its own CPU per request;
 * a machine with cores to spare sets more.
 */
import { z } from 'zod';
import { PLATFORM_SERVICES } from '@platform/devstack';

export const DEFAULT_PROCESSES: Readonly<Record<string, number>> = { identity: 1 };

const variableOf = (service: string) => `${service.toUpperCase()}_PROCESSES`;

export const processesConfig = z.object(
  Object.fromEntries(
    PLATFORM_SERVICES.map((service) => [
      variableOf(service),
      z.coerce
        .number()
        .int()
        .min(1)
        .max(16)
        .default(DEFAULT_PROCESSES[service] ?? 1)
        .describe(`processes of ${service} run side by side`),
    ]),
  ),
);

export type ProcessesConfig = z.infer<typeof processesConfig>;

/** The process count of every service, as `startPlatform`'s `replicas` takes it. */
export function processesPerService(config: ProcessesConfig): Record<string, number> {
  return Object.fromEntries(PLATFORM_SERVICES.map((service) => [service, config[variableOf(service)] ?? 1]));
}
