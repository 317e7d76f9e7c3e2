/**
 * Identity runs in Kubernetes as replicas of one Node.js process each (a process runs its
 * JavaScript on one core, its CPU limit): its autoscaler adds a replica as the pods near that
 * core, rather than at a share of the CPU request, which is a tenth of it.
 */
import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseAllDocuments } from 'yaml';

interface Manifest {
  kind: string;
  spec?: Record<string, unknown>;
}

const documents = parseAllDocuments(readFileSync(path.resolve(import.meta.dirname, 'k8s', 'identity.yaml'), 'utf8')).map(
  (document) => document.toJS() as Manifest,
);
const ofKind = (kind: string) => documents.find((manifest) => manifest.kind === kind);

/** Kubernetes' CPU quantities: `700m` or `1`, in cores. */
const cores = (quantity: string | number) =>
  String(quantity).endsWith('m') ? Number.parseFloat(String(quantity)) / 1000 : Number(quantity);

describe("identity's autoscaler", () => {
  it('adds a replica when pods average most of the one core their process can use', () => {
    const containers = (ofKind('Deployment')?.spec?.template as { spec: { containers: Array<{ resources: { limits: { cpu: string } } }> } })
      .spec.containers;
    expect(containers).toHaveLength(1);
    const limit = cores(containers[0]?.resources.limits.cpu ?? 0);
    expect(limit).toBe(1);
    const metrics = ofKind('HorizontalPodAutoscaler')?.spec?.metrics as Array<{
      type: string;
      resource: { name: string; target: { type: string; averageValue?: string } };
    }>;
    const cpu = metrics.filter((metric) => metric.type === 'Resource' && metric.resource.name === 'cpu');
    expect(cpu.map((metric) => metric.resource.target.type)).toEqual(['AverageValue']);
    const target = cores(cpu[0]?.resource.target.averageValue ?? 0);
    expect(target).toBeGreaterThanOrEqual(0.5 * limit);
    expect(target).toBeLessThan(limit);
  });
});
