import type { AnyOperation } from '../../../kernel/table.ts';
import { crmfeedGet, crmfeedLink, crmfeedUnlink } from './link.ts';
import {
  crmfeedGetCommunities,
  crmfeedGetGroups,
  crmfeedSetCommunity,
  crmfeedSetGroup,
  crmfeedUnsetCommunity,
  crmfeedUnsetGroup,
} from './choose.ts';

/** The customer-relationship feed (spec §4.10, issue 17; docs/api/crmfeed.md), and crmfeed.link (ext.). */
export const crmfeedOperations: readonly AnyOperation[] = [
  crmfeedGet,
  crmfeedUnlink,
  crmfeedGetCommunities,
  crmfeedGetGroups,
  crmfeedSetCommunity,
  crmfeedUnsetCommunity,
  crmfeedSetGroup,
  crmfeedUnsetGroup,
  crmfeedLink,
];
