import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { CommitCopy } from './commit-copy.entity.ts';
import { DeploymentCopy } from './deployment-copy.entity.ts';
import { LabelCopy } from './label-copy.entity.ts';
import { NoteCopy } from './note-copy.entity.ts';
import { PipelineCopy } from './pipeline-copy.entity.ts';
import { ProtectedBranchCopy } from './protected-branch-copy.entity.ts';
import { ProtectedTagCopy } from './protected-tag-copy.entity.ts';
import { PushedProject } from './pushed-project.entity.ts';

export const ISSUABLE_TYPES = ['MergeRequest', 'Issue'] as const;
export type IssuableType = (typeof ISSUABLE_TYPES)[number];

/**
 * The last state of a merge request or issue that review's events described: what a later event
 * compares with for its payload's `changes`, and what a note or an approval, whose events name
 * only the merge request or issue, shows of it.
 */
export const IssuableCopy = defineEntity({
  name: 'IssuableCopy',
  tableName: 'issuable_copies',
  properties: {
    type: p.enum(ISSUABLE_TYPES).primary(),
    id: p.bigint('number').primary(),
    projectId: p.bigint('number'),
    /** The event's data, as the payload builders take it. */
    facts: p.json<Record<string, unknown>>(),
  },
});
export type IssuableCopy = InferEntity<typeof IssuableCopy>;

export const triggersEntities = [
  IssuableCopy,
  LabelCopy,
  ProtectedBranchCopy,
  CommitCopy,
  ProtectedTagCopy,
  PipelineCopy,
  PushedProject,
  DeploymentCopy,
  NoteCopy,
];
