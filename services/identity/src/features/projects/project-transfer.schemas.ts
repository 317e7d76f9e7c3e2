import { z } from 'zod';
import { params } from '@platform/http';

/** `namespace` is checked after access, so that who may not transfer the project learns nothing more. */
export const transferProjectParams = z.object({ id: params.idOrPath(), namespace: params.idOrPath().optional() });
