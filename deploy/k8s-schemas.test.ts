/**
 * Every Kubernetes manifest in deploy/k8s validated against Kubernetes' published OpenAPI
 * schemas (the `kubernetes-models` package), the scale-out every Deployment must have (a
 * PodDisruptionBudget, and a HorizontalPodAutoscaler of at least 2 replicas that alone owns the
 * count), and volumes the non-root user can write.
 */
import { describe, expect, it } from '@jest/globals';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import * as models from 'kubernetes-models';
import { parseAllDocuments } from 'yaml';

interface Manifest {
  apiVersion: string;
  kind: string;
  metadata?: { name?: string };
  spec?: Record<string, unknown>;
}

const directory = path.resolve(import.meta.dirname, 'k8s');
/** Kustomize's own file is a build input, not an object the API server sees. */
const manifests: Array<{ file: string; manifest: Manifest }> = readdirSync(directory)
  .filter((file) => file.endsWith('.yaml') && file !== 'kustomization.yaml')
  .flatMap((file) =>
    parseAllDocuments(readFileSync(path.join(directory, file), 'utf8')).map((document) => ({
      file,
      manifest: document.toJS() as Manifest,
    })),
  );

type ModelClass = new (data: Manifest) => { validate(): void };

/** `apps/v1` + `Deployment` -> kubernetes-models' `apps.v1.Deployment`; core `v1` -> `v1`. */
function modelFor(manifest: Manifest): ModelClass | undefined {
  const [group, version] = manifest.apiVersion.includes('/') ? manifest.apiVersion.split('/') : ['', manifest.apiVersion];
  const groupKey = group ? group.replace(/\.(\w)/g, (_, letter: string) => letter.toUpperCase()) : version;
  const groupModels = (models as unknown as Record<string, Record<string, Record<string, ModelClass>>>)[groupKey ?? ''];
  return group
    ? groupModels?.[version ?? '']?.[manifest.kind]
    : (groupModels as unknown as Record<string, ModelClass> | undefined)?.[manifest.kind];
}

function schemaErrors(manifest: Manifest): string | undefined {
  const Model = modelFor(manifest);
  if (!Model) return `no published schema for ${manifest.apiVersion} ${manifest.kind}`;
  try {
    new Model(manifest).validate();
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

const ofKind = (kind: string) => manifests.map(({ manifest }) => manifest).filter((manifest) => manifest.kind === kind);

interface PodSpec {
  securityContext?: { fsGroup?: number };
  volumes?: Array<{ name: string; persistentVolumeClaim?: unknown }>;
}

/** Deployments whose pod mounts a claim without an fsGroup: a fresh volume is root's, and the pod runs as uid 1000. */
function unwritableVolumes(deployments: Manifest[]): string[] {
  return deployments.flatMap((deployment) => {
    const pod = (deployment.spec?.template as { spec?: PodSpec } | undefined)?.spec;
    const claims = (pod?.volumes ?? []).filter((volume) => volume.persistentVolumeClaim).map((volume) => volume.name);
    return claims.length > 0 && !Number.isInteger(pod?.securityContext?.fsGroup)
      ? [`Deployment ${deployment.metadata?.name}: mounts ${claims.join(', ')} without securityContext.fsGroup`]
      : [];
  });
}

describe('Kubernetes manifests', () => {
  it.each(manifests.map(({ file, manifest }) => [`${file}: ${manifest.kind} ${manifest.metadata?.name}`, manifest] as const))(
    '%s is valid against the Kubernetes schema',
    (_name, manifest) => {
      expect(schemaErrors(manifest)).toBeUndefined();
    },
  );

  it('leave the count of every Deployment to a HorizontalPodAutoscaler of 2 replicas or more, and give it a PodDisruptionBudget', () => {
    const deployments = ofKind('Deployment');
    expect(deployments.length).toBeGreaterThan(0);
    for (const deployment of deployments) {
      const name = deployment.metadata?.name;
      const labels = (deployment.spec?.selector as { matchLabels?: Record<string, string> }).matchLabels;
      // Each `kubectl apply` of a Deployment's replicas would reset the count the autoscaler chose.
      expect({ name, replicas: deployment.spec?.replicas }).toEqual({ name, replicas: undefined });
      const budget = ofKind('PodDisruptionBudget').find(
        (pdb) => JSON.stringify((pdb.spec?.selector as { matchLabels?: unknown }).matchLabels) === JSON.stringify(labels),
      );
      expect({ name, budget: budget?.spec?.minAvailable }).toEqual({ name, budget: 1 });
      const autoscaler = ofKind('HorizontalPodAutoscaler').find(
        (hpa) => (hpa.spec?.scaleTargetRef as { kind: string; name: string }).name === name,
      );
      expect({ name, minReplicas: autoscaler?.spec?.minReplicas }).toEqual({ name, minReplicas: 2 });
    }
  });

  it('give every pod that mounts a PersistentVolumeClaim an fsGroup, so the non-root user can write it', () => {
    expect(unwritableVolumes(ofKind('Deployment'))).toEqual([]);
  });

  it('finds schema mistakes', () => {
    const broken: Manifest = { apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', metadata: { name: 'x' }, spec: { minAvailable: [1] } };
    expect(schemaErrors(broken)).toContain('minAvailable');
    expect(schemaErrors({ apiVersion: 'apps/v1', kind: 'Deploymnet' })).toContain('no published schema');
  });

  it('finds a claim mounted without an fsGroup', () => {
    const pod = { volumes: [{ name: 'data', persistentVolumeClaim: { claimName: 'data' } }] };
    const deployment = (spec: PodSpec): Manifest => ({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'x' },
      spec: { template: { spec } },
    });
    expect(unwritableVolumes([deployment(pod)])).toEqual(['Deployment x: mounts data without securityContext.fsGroup']);
    expect(unwritableVolumes([deployment({ ...pod, securityContext: { fsGroup: 1000 } })])).toEqual([]);
  });
});
