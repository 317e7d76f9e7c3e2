import { describe, expect, it } from '@jest/globals';
import { simpleProjectView } from './project-views.ts';
import type { SimpleProject } from './project-rows.ts';

const project: SimpleProject = {
  id: 7,
  description: null,
  name: 'App',
  path: 'app',
  defaultBranch: 'main',
  topics: [],
  avatarUrl: null,
  createdAt: '2026-11-27T00:00:00.000Z',
  lastActivityAt: '2026-11-27T00:00:00.000Z',
  namespace: { id: 3, name: 'Crew', path: 'crew', kind: 'group', fullPath: 'crew', parentId: null, avatarUrl: null, fullName: 'Crew' },
  starCount: 0,
  forksCount: 0,
};

describe('simpleProjectView', () => {
  it("names each context's own host in the SSH URL, without its port", () => {
    const urls = ['https://gitlab.example.com:8443', 'http://platform.test'].map(
      (externalUrl) => simpleProjectView(project, { externalUrl }).ssh_url_to_repo,
    );
    expect(urls).toEqual(['git@gitlab.example.com:crew/app.git', 'git@platform.test:crew/app.git']);
    expect(simpleProjectView(project, { externalUrl: 'http://other.test' }).http_url_to_repo).toBe('http://other.test/crew/app.git');
  });
});
