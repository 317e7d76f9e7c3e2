import { RefusedError } from '@platform/errors';
import type { FileDiff } from '../repositories/git-repository.ts';
import type { NotePosition } from './note.entity.ts';

/** GitLab's `position` parameter of a diff note, as the API receives it. */
export interface PositionInput {
  base_sha: string;
  start_sha: string;
  head_sha: string;
  position_type: 'text';
  old_path?: string | undefined;
  new_path?: string | undefined;
  old_line?: number | undefined;
  new_line?: number | undefined;
}

/** A diff version's commits, as merge request versions and commits have them. */
export interface DiffRefs {
  baseSha: string;
  startSha: string;
  headSha: string;
}

/** A line of a patch: its number on the old side (null for an added line) and on the new side (null for a removed one). */
export interface DiffLine {
  oldLine: number | null;
  newLine: number | null;
}

/** The lines a patch shows, hunk by hunk. */
export function diffLines(patch: string): DiffLine[] {
  const lines: DiffLine[] = [];
  let oldLine = 0;
  let newLine = 0;
  let inHunk = false;
  for (const text of patch.split('\n')) {
    const hunk = /^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@/.exec(text);
    if (hunk) {
      oldLine = Number(hunk[1]);
      newLine = Number(hunk[2]);
      inHunk = true;
    } else if (!inHunk || text.startsWith('\\')) {
      continue;
    } else if (text.startsWith('+')) {
      lines.push({ oldLine: null, newLine: newLine++ });
    } else if (text.startsWith('-')) {
      lines.push({ oldLine: oldLine++, newLine: null });
    } else if (text.startsWith(' ')) {
      lines.push({ oldLine: oldLine++, newLine: newLine++ });
    }
  }
  return lines;
}

const LINE_CODE_MESSAGES = ["can't be blank", 'must be a valid line code'];

/** GitLab's refusal of a diff note its position does not place on a line of the diff, in its model's words. */
function invalidPosition(incomplete: boolean): RefusedError {
  const messages = [`:line_code=>[${LINE_CODE_MESSAGES.map((text) => `"${text}"`).join(', ')}]`];
  if (incomplete) messages.push(':position=>["is incomplete"]');
  return new RefusedError(`400 Bad request - Note {${messages.join(', ')}}`);
}

/**
 * The position of a diff note once it names a line of `refs`' changes: the file by its old or
 * new path, an added line by its new number, a removed one by its old number, an unchanged one by
 * both. Refused (400) as GitLab refuses a note it cannot place.
 */
export function placePosition(input: PositionInput, refs: DiffRefs | undefined, files: FileDiff[]): NotePosition {
  const incomplete = (!input.old_path && !input.new_path) || (input.old_line === undefined && input.new_line === undefined);
  if (!refs || incomplete) throw invalidPosition(incomplete);
  const file = files.find((candidate) => candidate.newPath === input.new_path || candidate.oldPath === input.old_path);
  const oldLine = input.old_line ?? null;
  const newLine = input.new_line ?? null;
  if (!file || !diffLines(file.diff).some((line) => line.oldLine === oldLine && line.newLine === newLine)) throw invalidPosition(false);
  return {
    base_sha: refs.baseSha,
    start_sha: refs.startSha,
    head_sha: refs.headSha,
    old_path: file.oldPath,
    new_path: file.newPath,
    position_type: 'text',
    old_line: oldLine,
    new_line: newLine,
    line_range: null,
  };
}
