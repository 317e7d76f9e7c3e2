import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

export const LABEL_TYPES = ['ProjectLabel', 'GroupLabel'] as const;
export type LabelType = (typeof LABEL_TYPES)[number];

/** A project or group label as review's events last described it: what payloads show of a merge request's or issue's labels. */
export const LabelCopy = defineEntity({
  name: 'LabelCopy',
  tableName: 'label_copies',
  properties: {
    type: p.enum(LABEL_TYPES).primary(),
    id: p.bigint('number').primary(),
    projectId: p.bigint('number').nullable(),
    groupId: p.bigint('number').nullable(),
    title: p.text(),
    color: p.text(),
    description: p.text().nullable(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  },
});
export type LabelCopy = InferEntity<typeof LabelCopy>;
