import type { AnyOperation } from '../../table.ts';
import speakerCreate from '../speaker/create.ts';
import speakerEdit from '../speaker/edit.ts';
import speakerRemove from '../speaker/remove.ts';
import speakerGet from '../speaker/get.ts';
import speakerFind from '../speaker/find.ts';
import sponsorCreate from '../sponsor/create.ts';
import sponsorEdit from '../sponsor/edit.ts';
import sponsorRemove from '../sponsor/remove.ts';
import sponsorGet from '../sponsor/get.ts';
import sponsorFind from '../sponsor/find.ts';
import tagCreate from '../tag/create.ts';
import tagEdit from '../tag/edit.ts';
import tagRemove from '../tag/remove.ts';
import tagGet from '../tag/get.ts';
import tagFind from '../tag/find.ts';
import companyTagCreate from '../company/tag/create.ts';
import companyTagFind from '../company/tag/find.ts';
import companyTagRemove from '../company/tag/remove.ts';
import eventTagBind from '../event/tag/bind.ts';
import eventTagDismiss from '../event/tag/dismiss.ts';
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
  speakerCreate,
  speakerEdit,
  speakerRemove,
  speakerGet,
  speakerFind,
  sponsorCreate,
  sponsorEdit,
  sponsorRemove,
  sponsorGet,
  sponsorFind,
  tagCreate,
  tagEdit,
  tagRemove,
  tagGet,
  tagFind,
  companyTagCreate,
  companyTagFind,
  companyTagRemove,
  eventTagBind,
  eventTagDismiss,
  eventTagFind,
  hotsiteCreate,
  hotsiteFind,
  hotsiteEdit,
  hotsiteRemove,
];
