import type { Generated, Insertable, Selectable, Updateable } from 'kysely';

// Column names are the API's field names, so a row becomes an API object without a rename table.
// Text columns default to '', integer flags to 0; the types say which columns may be omitted on insert.

type D<T> = Generated<T>;

export interface PersonTable {
  personID: D<number>;
  username: string;
  email: D<string>;
  firstName: D<string>;
  lastName: D<string>;
  name: D<string>;
  image: D<string>;
  timezone: D<string>;
  telephone: D<string>;
  socialAID: D<string>;
  socialBID: D<string>;
  socialCID: D<string>;
  role: D<string>;
  company: D<string>;
  passwordHash: D<string>;
  operator: D<number>;
  dateCreated: D<number>;
}

export interface TokenTable {
  tokenHash: string;
  personID: number;
  scope: 'system' | 'event';
  targetID: number;
  dateCreated: number;
  expiresAt: number;
}

export interface CompanyTable {
  companyID: D<number>;
  namespace: string;
  shortName: D<string>;
  storeTitle: D<string>;
  appIcon: D<string>;
  storeIcon: D<string>;
  cover: D<string>;
  splash: D<string>;
  androidBundle: D<string>;
  iosBundle: D<string>;
  androidApp: D<string>;
  iosApp: D<string>;
  agreement: D<string>;
  keywords: D<string>;
  backgroundColor: D<string>;
  navigationBarBackgroundColor: D<string>;
  mainColor: D<string>;
  location: D<string>;
  androidVersion: D<string>;
  iosVersion: D<string>;
  language: D<string>;
  currency: D<string>;
  androidReview: D<number>;
  iosReview: D<number>;
  initialDemo: D<number>;
  onboardingTokenHash: string | null;
  onboardingExpiresAt: D<number>;
  dateCreated: D<number>;
}

export interface CompanyPersonTable {
  companyID: number;
  personID: number;
  level: number;
  dateCreated: number;
}

export const TOOL_SWITCHES = [
  'feedback', 'presence', 'material', 'question', 'comment', 'quiz', 'speaker', 'networking',
  'pushNotification', 'shareOnlyEventDay', 'searchBar', 'socialALogin', 'socialBLogin',
  'confirmationEmail', 'offlinePush', 'meeting', 'localTimezone', 'aboutUs', 'autoApproveQuestion',
  'autoApproveComment', 'autoApproveSocialFlow', 'photo', 'quickMenu', 'multipleEvents', 'sponsors',
  'stream', 'feed', 'schedule', 'socialBLegacy', 'hideFullRooms',
] as const; // prettier-ignore
export type ToolSwitch = (typeof TOOL_SWITCHES)[number];

export type CompanyToolTable = { id: D<number>; companyID: number } & { [K in ToolSwitch]: D<number> };

export const EVENT_TEXT_COLUMNS = [
  'name', 'nickname', 'emailAddress', 'emailName', 'emailDNS', 'emailReplyTo', 'description',
  'background', 'cover', 'coverVideo', 'welcomeOverlay', 'activityLayout', 'fontFamily', 'page',
  'contentPage', 'keywords', 'currency', 'spot', 'address', 'city', 'state', 'fugleman', 'ebEventID',
  'ticketURL', 'contentLanguage', 'googleAnalytics', 'googleTagManager', 'socialAPixel', 'socialBPixel',
  'intercomTag', 'website', 'faq', 'agreement', 'socialA', 'socialD', 'socialC', 'rss', 'vlTemplate',
  'vlControlRoomLayout', 'vlBackgroundIdle', 'meetingStartTime', 'meetingEndTime', 'meetingDurationTime',
  'wireless', 'templateColor', 'placeName', 'timezone', 'language', 'vlNetworkingRouletteTimer',
] as const; // prettier-ignore

export const EVENT_NUMBER_COLUMNS = [
  'dateCreated', 'dateBegin', 'dateEnd', 'enrollmentBegin', 'enrollmentEnd', 'accessEnd', 'ownerID',
  'creatorID', 'capacity', 'invites', 'guestsForMember', 'placeID', 'archived', 'published', 'presential',
  'automaticEnrollment', 'sandbox', 'vlJoinBeforeStarts', 'vlJoinAfterEnds', 'templateID', 'isTemplate',
  'siblingID', 'visible', 'public', 'budget',
] as const; // prettier-ignore

export type EventTable = { eventID: D<number>; companyID: number } & {
  [K in (typeof EVENT_TEXT_COLUMNS)[number]]: K extends 'name' | 'nickname' ? string : D<string>;
} & { [K in (typeof EVENT_NUMBER_COLUMNS)[number]]: D<number> } & {
  cname: string | null;
  accessCode: number | null;
  latitude: number | null;
  longitude: number | null;
};

export interface EventPersonTable {
  eventID: number;
  personID: number;
  level: D<number>;
  approved: D<number>;
  rsvp: D<number>;
  passwordHash: D<string>;
  origin: D<string>;
  message: D<string>;
  paid: D<number>;
  present: D<number>;
  private: D<number>;
  prints: D<number>;
  enrollmentDate: D<number>;
  updatedDate: D<number>;
}

export interface TagTable {
  tagID: D<number>;
  companyID: number;
  eventID: number | null;
  name: D<string>;
  color: D<string>;
  kind: D<string>;
}

export interface EventTagTable {
  eventID: number;
  tagID: number;
}

export interface BillingTable {
  billingID: D<number>;
  companyID: number;
  eventID: number | null;
  product: 'email' | 'sms';
  amount: D<number>;
  sent: D<number>;
}

export interface SettingTable {
  key: string;
  value: string;
}

export interface DB {
  setting: SettingTable;
  person: PersonTable;
  token: TokenTable;
  company: CompanyTable;
  companyPerson: CompanyPersonTable;
  companyTool: CompanyToolTable;
  event: EventTable;
  eventPerson: EventPersonTable;
  tag: TagTable;
  eventTag: EventTagTable;
  billing: BillingTable;
}

export type Person = Selectable<PersonTable>;
export type Company = Selectable<CompanyTable>;
export type Event = Selectable<EventTable>;
export type NewEvent = Insertable<EventTable>;
export type EventUpdate = Updateable<EventTable>;
