// Permission levels: what operations declare in their rules and what domain rules check. They live
// here, outside the operation kernel, because domain code reasons about them too (an admin sees more
// fields, a collector may check people in) and domain code does not import the kernel.

/** Event permission levels (spec §5.8); a member's level may combine several. */
export const LEVEL = {
  USER: 1,
  ADMIN: 4,
  STAFF: 64,
  SPEAKER: 128,
  COLLECTOR: 256,
  TRANSLATOR: 32768,
} as const;
/** Any level at all: for operations every member of the event may call. */
export const ANY_LEVEL = Object.values(LEVEL).reduce((a, b) => a | b, 0);
/** Company permission levels (spec §5.7, §2.6 Company admin). */
export const COMPANY_LEVEL = { EXTERNAL: 1, ADMIN: 4 } as const;
