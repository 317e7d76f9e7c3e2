import { describe, expect, it } from '@jest/globals';
import { RefusedError } from '@platform/errors';
import type { FileDiff } from '../repositories/git-repository.ts';
import { diffLines, placePosition } from './diff-position.ts';

const patch = [
  'diff --git a/app.py b/app.py',
  '--- a/app.py',
  '+++ b/app.py',
  '@@ -1,3 +1,3 @@',
  ' one',
  '-two',
  '+TWO',
  ' three',
  '\\ No newline at end of file',
].join('\n');
const file: FileDiff = {
  oldPath: 'app.py',
  newPath: 'app.py',
  aMode: '100644',
  bMode: '100644',
  newFile: false,
  renamedFile: false,
  deletedFile: false,
  tooLarge: false,
  diff: patch,
};
const refs = { baseSha: 'b'.repeat(40), startSha: 's'.repeat(40), headSha: 'h'.repeat(40) };
const position = { base_sha: refs.baseSha, start_sha: refs.startSha, head_sha: refs.headSha, position_type: 'text' as const };

describe('diff positions', () => {
  it('numbers the lines of each hunk on both sides, headers and markers aside', () => {
    expect(diffLines(patch)).toEqual([
      { oldLine: 1, newLine: 1 },
      { oldLine: 2, newLine: null },
      { oldLine: null, newLine: 2 },
      { oldLine: 3, newLine: 3 },
    ]);
  });

  it('places an added line by its new number, a removed one by its old, an unchanged one by both', () => {
    expect(placePosition({ ...position, new_path: 'app.py', new_line: 2 }, refs, [file])).toMatchObject({
      old_line: null,
      new_line: 2,
      old_path: 'app.py',
    });
    expect(placePosition({ ...position, old_path: 'app.py', old_line: 2 }, refs, [file])).toMatchObject({ old_line: 2, new_line: null });
    expect(placePosition({ ...position, new_path: 'app.py', old_line: 3, new_line: 3 }, refs, [file])).toMatchObject({
      old_line: 3,
      new_line: 3,
    });
  });

  it("refuses a line the diff does not show, another version's commits and a position without a path or line, in GitLab's words", () => {
    const lineCode = '400 Bad request - Note {:line_code=>["can\'t be blank", "must be a valid line code"]}';
    expect(() => placePosition({ ...position, new_path: 'app.py', new_line: 3 }, refs, [file])).toThrow(new RefusedError(lineCode));
    expect(() => placePosition({ ...position, new_path: 'other.py', new_line: 2 }, refs, [file])).toThrow(new RefusedError(lineCode));
    expect(() => placePosition({ ...position, new_path: 'app.py', new_line: 2 }, undefined, [])).toThrow(new RefusedError(lineCode));
    expect(() => placePosition({ ...position, new_line: 2 }, refs, [file])).toThrow(
      new RefusedError(
        '400 Bad request - Note {:line_code=>["can\'t be blank", "must be a valid line code"], :position=>["is incomplete"]}',
      ),
    );
  });
});
