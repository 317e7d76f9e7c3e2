/** Parameter shapes shared by the group and project endpoints. */
import { z } from 'zod';
import { dateParam, params } from '@platform/http';
import { VISIBILITIES } from './namespace.entity.ts';

/** Grape's string array forms (`topics[]=a&topics[]=b`, `topics=a,b`, JSON arrays). */
export const stringList = () => params.stringList();

export const accessLevelParam = () =>
  params.integer().refine((value) => [10, 20, 30, 40, 50].includes(value), { message: 'does not have a valid value' });

export const visibilityParam = () => z.enum(VISIBILITIES);

/** `custom_attributes[key]=value` filters, administrators only. */
export const customAttributesParam = () => z.record(z.string().max(255), z.string().max(255));

/** An empty value clears an optional date, as in GitLab's forms. */
export const clearableDateParam = () => z.union([dateParam(), z.literal('').transform(() => null), z.null()]);

/** GitLab's rule for paths: letters, digits, `_`, `-` and `.`; no leading `-`, no trailing `.`, `.git` or `.atom`. */
export const PATH_PATTERN = /^[a-zA-Z0-9_.][a-zA-Z0-9_.-]*$/;
export const PATH_MESSAGE = "can contain only letters, digits, '_', '-' and '.'. Cannot start with '-', end in '.git' or end in '.atom'";

export function isValidPath(path: string): boolean {
  return PATH_PATTERN.test(path) && !/(\.git|\.atom|\.)$/i.test(path);
}

/** GitLab's rule for names: start with a letter, digit, emoji or `_`; then also `.`, `-`, spaces, `+` and parentheses. */
const NAME_PATTERN = /^[\p{L}\p{N}_\p{Extended_Pictographic}][\p{L}\p{N}_\p{Extended_Pictographic}. +\-()]*$/u;
export const NAME_MESSAGE =
  "can contain only letters, digits, emojis, '_', '.', '+', dashes, or spaces. It must start with a letter, digit, emoji, or '_'.";

export function isValidName(name: string): boolean {
  return NAME_PATTERN.test(name);
}

/** A path derived from a name, as GitLab does when only a name is given. */
export function pathFromName(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9_.]+/g, '-')
    .replace(/^[-.]+|[-.]+$/g, '');
}
