import { describe, expect, it } from '@jest/globals';
import type { ProjectAccess } from '@platform/identity-client';
import { crossReferenceBody } from './cross-references.ts';

const project = (id: number, pathWithNamespace: string, namespaceIds: number[]) =>
  ({ id, pathWithNamespace, namespaceIds }) as ProjectAccess;
const app = project(1, 'acme/app', [5]);
const lib = project(2, 'acme/lib', [5]);
const elsewhere = project(3, 'other/tools', [6]);

describe('cross-reference notes', () => {
  it("name the mentioner as GitLab's to_reference from the mentioned's project: short, by path in its namespace, else by full path", () => {
    expect(crossReferenceBody({ mentioner: { type: 'MergeRequest', iid: 3 }, from: app, to: app })).toBe('mentioned in merge request !3');
    expect(crossReferenceBody({ mentioner: { type: 'Issue', iid: 5 }, from: lib, to: app })).toBe('mentioned in issue lib#5');
    expect(crossReferenceBody({ mentioner: { type: 'MergeRequest', iid: 7 }, from: elsewhere, to: app })).toBe(
      'mentioned in merge request other/tools!7',
    );
  });
});
