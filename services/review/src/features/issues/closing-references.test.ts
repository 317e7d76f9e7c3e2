import { describe, expect, it } from '@jest/globals';
import { closingMentionsIn, mentionsIn, referencedIssueIids, referencedMergeRequestIids } from './closing-references.ts';

const project = { pathWithNamespace: 'acme/app', webUrl: 'https://gitlab.example/acme/app' };

/** The issues a text closes, as references: `#12` for its own project's, `group/project#12` for a path, the address's project for an address. */
const closed = (text: string) =>
  closingMentionsIn(text).map((mention) => `${mention.projectUrl ?? mention.projectPath ?? ''}#${mention.iid}`);

describe('closing references', () => {
  it("finds the issues GitLab's default closing pattern closes", () => {
    expect(closed('Closes #12')).toEqual(['#12']);
    expect(closed('This fixes #3, #4 and #5.')).toEqual(['#3', '#4', '#5']);
    expect(closed('Resolves: issue #7\nImplements acme/app#8')).toEqual(['#7', 'acme/app#8']);
    expect(closed('closing https://gitlab.example/acme/app/-/issues/9')).toEqual(['https://gitlab.example/acme/app#9']);
    expect(closed('Fixed #1 and fixing #2; resolved #3, fixes #1')).toEqual(['#1', '#2', '#3']);
  });

  it('names issues of other projects, for whoever reads them to resolve', () => {
    expect(closed('Closes other/project#6 and https://gitlab.example/other/project/-/issues/7')).toEqual([
      'other/project#6',
      'https://gitlab.example/other/project#7',
    ]);
  });

  it('leaves out mentions without a closing word, and merge requests', () => {
    expect(closed('Related to #4, see #5')).toEqual([]);
    expect(closed('Prefix #8')).toEqual([]);
    expect(closed('Enclosed #9')).toEqual([]);
    expect(closed('Closes !10')).toEqual([]);
  });
});

describe('mentions', () => {
  it("finds the project's issues a text mentions in any of GitLab's reference forms", () => {
    expect(referencedIssueIids('See #4, and acme/app#5 (https://gitlab.example/acme/app/-/issues/6).', project)).toEqual([4, 5, 6]);
    expect(referencedIssueIids('Closes #7\n#7 again', project)).toEqual([7]);
  });

  it('leaves out other projects, merge requests and what is no reference', () => {
    expect(referencedIssueIids('other/project#1 https://gitlab.example/other/project/-/issues/2', project)).toEqual([]);
    expect(referencedIssueIids('abc#3 !4 https://gitlab.example/acme/app/-/merge_requests/5', project)).toEqual([]);
  });

  it("finds the project's merge requests a text mentions", () => {
    expect(referencedMergeRequestIids('Done in !2 and acme/app!3; https://gitlab.example/acme/app/-/merge_requests/4', project)).toEqual([
      2, 3, 4,
    ]);
    expect(referencedMergeRequestIids('other/project!5 #6 wow!7', project)).toEqual([]);
  });
});

describe('mentions in any project', () => {
  it('finds issues and merge requests of the own project and of others, by reference or address, once each', () => {
    expect(
      mentionsIn('See #4, !2 and Other/Lib#5 (https://gitlab.example/other/lib/-/merge_requests/6); #4 and other/lib#5 again'),
    ).toEqual([
      { type: 'Issue', projectPath: null, projectUrl: null, iid: 4 },
      { type: 'Issue', projectPath: 'Other/Lib', projectUrl: null, iid: 5 },
      { type: 'MergeRequest', projectPath: null, projectUrl: null, iid: 2 },
      { type: 'MergeRequest', projectPath: 'other/lib', projectUrl: 'https://gitlab.example/other/lib', iid: 6 },
    ]);
  });

  it('leaves out what is no reference', () => {
    expect(mentionsIn('abc#1 x!2 plain text https:///-/issues/3 #2147483648')).toEqual([]);
    expect(referencedIssueIids('#2147483648', project)).toEqual([]);
  });
});
