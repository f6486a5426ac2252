import { text } from '../../../schemas.ts';

/** A subject: one line (a line break would start a header of its own: header injection). */
export const subject = text(300)
  .refine((v) => !/[\r\n]/.test(v), 'cannot contain line breaks')
  .transform((v) => v.trim())
  .refine((v) => v !== '', 'cannot be blank');

/** The organizer's text: HTML (sanitized on write) with merge fields. */
export const body = text(100_000).refine((v) => v.trim() !== '', 'cannot be blank');
