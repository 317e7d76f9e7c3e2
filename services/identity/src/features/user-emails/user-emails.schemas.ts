import { z } from 'zod';
import { params } from '@platform/http';

const address = z.string().max(255);

export const ownEmailParams = z.object({ email_id: params.integer() });
export const addOwnEmailParams = z.object({ email: address });
export const userEmailsParams = z.object({ id: params.integer() });
export const userEmailParams = userEmailsParams.extend({ email_id: params.integer() });
export const addUserEmailParams = userEmailsParams.extend({ email: address, skip_confirmation: params.boolean().optional() });
