import { z } from 'zod';
import { ERRORS, type ErrorCode } from '../errors.js';
import { TEXT_FIELD_HARD_MAX } from '../limits.js';

/** A text field of a JSON body: any string up to the hard cap; the rules run afterwards. */
export const text = () => z.string().max(TEXT_FIELD_HARD_MAX);

export const ErrorBody = z
  .object({
    code: z.enum(Object.keys(ERRORS) as [ErrorCode, ...ErrorCode[]]),
    message: z.string(),
    messages: z.array(z.string()).optional(),
    detail: z.string().optional(),
  })
  .meta({ id: 'Error' });
