import type { AnyOperation } from '../kernel/table.ts';
import { speakerOperations } from '../resources/speaker/operations/index.ts';
import { sponsorOperations } from '../resources/sponsor/operations/index.ts';
import { tagOperations } from '../resources/tag/operations/index.ts';
import companyTagCreate from '../resources/company/operations/tag/create.ts';
import companyTagFind from '../resources/company/operations/tag/find.ts';
import companyTagRemove from '../resources/company/operations/tag/remove.ts';
import { eventTagPairOperations } from '../resources/event/operations/tag/rules.ts';
import eventTagFind from '../resources/event/operations/tag/find.ts';
import { hotsiteOperations } from '../resources/hotsite/operations/index.ts';
import eventPreview from '../resources/event/operations/preview.ts';

/**
 * The public website's content: speakers, sponsors, tags (the event's own, and the company's event tags
 * that classify its events) and hotsite sections (docs/api/site.md).
 */
export const siteOperations: readonly AnyOperation[] = [
  ...speakerOperations,
  ...sponsorOperations,
  ...tagOperations,
  companyTagCreate,
  companyTagFind,
  companyTagRemove,
  ...eventTagPairOperations,
  eventTagFind,
  ...hotsiteOperations,
  eventPreview,
];
