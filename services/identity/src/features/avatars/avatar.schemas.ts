import { z } from 'zod';
import { params } from '@platform/http';

/** GitLab's `avatar` parameter: a file from a multipart body, or empty to remove the avatar. */
export const avatarParam = () => z.union([params.file(), z.literal('')]);
