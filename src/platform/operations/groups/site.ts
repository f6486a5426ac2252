import type { AnyOperation } from '../../table.ts';
import { speakerOperations } from '../speaker/index.ts';
import { sponsorOperations } from '../sponsor/index.ts';
import { tagOperations } from '../tag/index.ts';
import companyTagCreate from '../company/tag/create.ts';
import companyTagFind from '../company/tag/find.ts';
import companyTagRemove from '../company/tag/remove.ts';
import { eventTagPairOperations } from '../event/tag/rules.ts';
import eventTagFind from '../event/tag/find.ts';
import hotsiteCreate from '../event/hotsite/create.ts';
import hotsiteFind from '../event/hotsite/find.ts';
import hotsiteEdit from '../event/hotsite/edit.ts';
import hotsiteRemove from '../event/hotsite/remove.ts';

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
  hotsiteCreate,
  hotsiteFind,
  hotsiteEdit,
  hotsiteRemove,
];
