import type { EntityManager } from '@platform/db';
import { AccessPolicy } from './access-policy.ts';
import { PgGroupLookup, type GroupLookup } from './group-lookup.ts';
import { Namespace } from './namespace.entity.ts';
import { PgNamespaceStore, type NamespaceStore } from './namespaces-store.ts';
import { Project, ProjectGroupLink } from './project.entity.ts';

/** The tables access is decided on; the features that change them (groups, projects) own no other copy. */
export const accessEntities = [Namespace, Project, ProjectGroupLink];

/**
 * The namespace tree and who may do what in it: what groups, projects, members and namespaces
 * share, built once and handed to each of them, so that none imports another for it.
 */
export interface AccessCore {
  policy: AccessPolicy;
  namespaces: NamespaceStore;
  groups: GroupLookup;
}

export function createAccessCore(em: EntityManager): AccessCore {
  const namespaces = new PgNamespaceStore(em);
  return { policy: new AccessPolicy({ em, namespaces }), namespaces, groups: new PgGroupLookup(em) };
}
