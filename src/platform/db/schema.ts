import type { Generated, Insertable, Selectable, Updateable } from 'kysely';
import { TOOL_SWITCHES } from '../../shared/wire/admin.ts';

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
  summary: D<string>;
  headline: D<string>;
  city: D<string>;
  socialA: D<string>;
  socialB: D<string>;
  socialC: D<string>;
  socialD: D<string>;
  website: D<string>;
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
  /** The name and e-mail the company gave when it added the person (its own view of them). */
  name: D<string>;
  email: D<string>;
}

/** A one-time link that proves the owner of an address (stored hashed; docs/api.md "Confirmations"). */
export interface ConfirmationTable {
  codeHash: string;
  personID: number;
  /** `password`: person.recover; `eventLink`: an event magic link (issue 18, person.signInLink). */
  purpose: 'password' | 'eventLink';
  /** The event the link is for (0: none; an `eventLink` is always for one). */
  eventID: D<number>;
  /** The request a mail job made the code for (person.recover, person.requestLink); '' otherwise. */
  value: D<string>;
  dateCreated: number;
  expiresAt: number;
  usedAt: D<number>;
}

/** A wrong access code tried at an event's gate (never the code itself). */
export interface AccessCodeFailureTable {
  failureID: D<number>;
  eventID: number;
  /** Unix seconds. */
  time: number;
  /** The caller's network only: /24 of IPv4, /48 of IPv6. */
  address: string;
  /** 1 when the event's budget of wrong codes was spent and the caller had solved a challenge. */
  challenged: D<number>;
}

// The tool switches are listed once, with their wire row (src/shared/wire/admin.ts).
export { TOOL_SWITCHES };
export type ToolSwitch = (typeof TOOL_SWITCHES)[number];

export type CompanyToolTable = { id: D<number>; companyID: number } & { [K in ToolSwitch]: D<number> };

export const EVENT_TEXT_COLUMNS = [
  'name', 'nickname', 'smsText', 'emailAddress', 'emailName', 'emailDNS', 'emailReplyTo', 'description',
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
  'siblingID', 'visible', 'public', 'budget', 'enrollmentOpen', 'inviteRequired', 'waitingList', 'printLimit',
  'approvalRequired',
] as const; // prettier-ignore

export type EventTable = { eventID: D<number>; companyID: number } & {
  [K in (typeof EVENT_TEXT_COLUMNS)[number]]: K extends 'name' | 'nickname' ? string : D<string>;
} & { [K in (typeof EVENT_NUMBER_COLUMNS)[number]]: D<number> } & {
  /** The custom domain served (only once verified, migration 0035): what a Host is looked up by. */
  cname: string | null;
  /** The custom domain the organizer asked for; served as `cname` once its DNS check passes. */
  cnameAsked: string | null;
  /** '' none asked, 'checking', 'verified', 'missing', 'wrong' or 'error' (the last check's). */
  cnameState: D<string>;
  /** The last check of the asked domain as JSON (a sender check's `owner` shape); '' before one. */
  cnameDNS: D<string>;
  accessCode: number | null;
  latitude: number | null;
  longitude: number | null;
  /** Text of the consent checkbox of the registration form ('' = none). */
  consent: D<string>;
};

/** An attendee's registration in an event: its state and event-only fields. */
export interface EventRegistrationTable {
  eventID: number;
  personID: number;
  /** The registration's own id (spec §2.3 enrollmentID), assigned by the store (migration 0004). */
  enrollmentID: D<number>;
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
  language: D<string>;
  assistantEmail: D<string>;
  nfc: D<string>;
  qrCode: D<string>;
  ticketID: D<number>;
  profileID: D<number>;
  /** Percent a coupon took off this registration (migration 0013); 0 without one. */
  discount: D<number>;
}

/**
 * The profile a person gave to one event (docs/api.md "People: identity and profiles"), on eventPerson:
 * what that event's admins see and edit; the person's identity and other events never change with it.
 */
export const EVENT_PROFILE_FIELDS = [
  'username', 'email', 'firstName', 'lastName', 'name', 'image', 'telephone', 'role', 'company', 'summary',
  'headline', 'city', 'socialA', 'socialB', 'socialC', 'socialD', 'website',
] as const; // prettier-ignore
export type EventProfileField = (typeof EVENT_PROFILE_FIELDS)[number];
export type EventPersonTable = EventRegistrationTable & { [K in EventProfileField]: D<string> };

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

export interface ActivityTable {
  activityID: D<number>;
  eventID: number;
  name: D<string>;
  description: D<string>;
  /** The room: the site's schedule grid has one column per distinct location. */
  location: D<string>;
  stream: D<string>;
  latitude: number | null;
  longitude: number | null;
  /** Who created it (spec §2.4 personID of the record is the viewer's; this is the creator). */
  personID: D<number>;
  placeID: D<number>;
  /** Maximum approved people; 0 = no limit. */
  capacity: D<number>;
  /** Maximum people attending (approved or waiting); 0 = no limit. */
  oversize: D<number>;
  general: D<number>;
  highlight: D<number>;
  lockOperations: D<number>;
  dateBegin: D<number>;
  dateEnd: D<number>;
  dateCreated: D<number>;
  updatedDate: D<number>;
}

export interface ActivityPersonTable {
  enrollmentID: D<number>;
  activityID: number;
  eventID: number;
  personID: number;
  /** Spec §3: 0 registered (waiting), 1 approved. A dismissed person has no row (-1). */
  approved: D<number>;
  paid: D<number>;
  present: D<number>;
  priori: D<number>;
  rating: D<number>;
  position: D<number>;
  dateCreated: D<number>;
}

export interface ChainTable {
  chainID: D<number>;
  eventID: number;
  name: D<string>;
  /** The chain's constraint: how many of its activities one person may be enrolled in (default 1). */
  maxPerPerson: D<number>;
}

export interface ListTable {
  listID: D<number>;
  eventID: number;
  name: D<string>;
  dateCreated: D<number>;
}

/** Migration 0007: one session's change in one write (src/platform/resources/program). */
export interface ProgramChangeTable {
  programChangeID: Generated<number>;
  eventID: number;
  version: number;
  at: number;
  activityID: number;
  kinds: string;
  shown: number;
  name: string;
  location: string;
  dateBegin: number | null;
  dateEnd: number | null;
  speakers: string;
  oldName: string;
  oldLocation: string;
  oldDateBegin: number | null;
  oldDateEnd: number | null;
  oldSpeakers: string;
}

/** Migration 0008: one browser's Web Push subscription for one event (src/platform/resources/webpush). */
export interface WebPushTable {
  pushID: D<number>;
  eventID: number;
  endpoint: string;
  p256dh: string;
  auth: string;
  page: D<string>;
  address: D<string>;
  dateCreated: number;
}

export interface SpeakerTable {
  speakerID: D<number>;
  eventID: number;
  personID: number | null;
  name: D<string>;
  headline: D<string>;
  description: D<string>;
  category: D<string>;
  image: D<string>;
  email: D<string>;
  website: D<string>;
  socialA: D<string>;
  socialB: D<string>;
  socialC: D<string>;
  position: D<number>;
}

export interface SponsorTable {
  sponsorID: D<number>;
  eventID: number;
  companyName: D<string>;
  name: D<string>;
  telephone: D<string>;
  email: D<string>;
  website: D<string>;
  bio: D<string>;
  logo: D<string>;
  category: D<string>;
  /** Tier name shown on the site (e.g. Gold); tierRank orders tiers, 1 first. */
  tier: D<string>;
  tierRank: D<number>;
  position: D<number>;
}

export interface HotsiteTable {
  sectionID: D<number>;
  eventID: number;
  /** The section kind: what the site renders there (see HOTSITE_SECTIONS). */
  section: D<string>;
  position: D<number>;
  name: D<string>;
  /** Organizer HTML, sanitized on write. */
  text: D<string>;
}

export interface FeedbackTable {
  feedbackID: D<number>;
  eventID: number;
  name: D<string>;
  description: D<string>;
  type: D<string>;
  /** JSON array of option strings (select, multi-select). */
  options: D<string>;
  /** The "API Field key" of spec §4.4 (feedbackContent as an object); null when none. */
  apiKey: string | null;
  required: D<number>;
  position: D<number>;
}

export interface FeedbackAnswerTable {
  feedbackID: number;
  personID: number;
  eventID: number;
  value: D<string>;
}

export interface SettingTable {
  key: string;
  value: string;
}

/** The change log (migration 0005): one row per thing a committed write changed. */
export interface ChangeTable {
  changeID: D<number>;
  /** Unix milliseconds. */
  at: number;
  /** The operation that wrote (`activity.edit`), or the writer outside the API (`seed`, `cli`). */
  operation: string;
  /** What changed: the operation's module (`activity`, `event.person`, …). */
  kind: string;
  companyID: number | null;
  eventID: number | null;
  objectID: number | null;
  /** The call's id parameters, JSON (`{"activityID":1,"personID":2}`); '' for writers outside the API (migration 0009). */
  ids: D<string>;
  /** 1 when the call asked to skip webhooks (bypassWebhook=1). */
  quiet: D<number>;
}

/** A webhook (migration 0009, docs/webhooks.md). */
export interface WebhookTable {
  webhookID: D<number>;
  companyID: number;
  eventID: number | null;
  /** Who registered it: the payload's object is read with this person's rights. */
  personID: number;
  url: string;
  /** Comma-separated operation names; '' for all. */
  types: string;
  active: number;
  /** Why the platform turned it off: '' , `410`, `failing`. */
  disabledReason: D<string>;
  /** Sealed with WEBHOOK_SECRET_KEY (src/platform/resources/webhook/secret.ts). */
  secret: string;
  oldSecret: D<string>;
  /** Unix ms until which the old secret signs too. */
  oldSecretUntil: D<number>;
  createdAt: number;
  /** Unix ms of the first failure of the current run of failures; null after a success. */
  failingSince: number | null;
}

export interface WebhookDeliveryTable {
  deliveryID: D<number>;
  webhookID: number;
  /** Null for a ping. */
  changeID: number | null;
  type: string;
  /** The JSON body, exactly as sent. */
  payload: string;
  /** `held`: made while its webhook was off — never sent, replayed by webhook.events (docs/webhooks.md). */
  state: 'pending' | 'delivered' | 'failed' | 'held';
  attempts: D<number>;
  createdAt: number;
  /** Unix ms the next attempt is due; null once settled. */
  nextAt: number | null;
}

export interface WebhookAttemptTable {
  attemptID: D<number>;
  deliveryID: number;
  at: number;
  /** HTTP status; 0 without an answer. */
  status: number;
  latencyMs: number;
  /** The first 1 KB of the answer, or why there was none. */
  response: string;
}

export interface WebhookFeedTable {
  name: string;
  lastID: number;
  /** Ids below lastID not seen yet, JSON [[id, noticedMs], …]. */
  gaps: D<string>;
}

/**
 * A durable job on the SQLite store (migration 0006; on PostgreSQL pg-boss keeps its own tables):
 * src/platform/jobs/sqlite.ts reads and writes it.
 */
export interface JobTable {
  jobID: D<number>;
  name: string;
  /** The handler's input, JSON. */
  payload: string;
  /** Idempotency key, unique per name among unfinished jobs. */
  key: string | null;
  state: D<'queued' | 'running' | 'failed'>;
  attempts: D<number>;
  maxAttempts: number;
  /** Unix ms from which a queued job may run. */
  runAt: number;
  /** Unix ms the running job's lease ends. */
  lockedUntil: number | null;
  lockedBy: string | null;
  lastError: string | null;
  createdAt: number;
  failedAt: number | null;
}

/** One scan of a check-in device (migration 0012, docs/api/checkin.md). */
export interface ChecklogTable {
  checklogID: D<number>;
  eventID: number;
  /** 0: the event's entrance; else the session's door. */
  activityID: number;
  personID: number;
  direction: 'in' | 'out';
  /** The scan's time on the device (Unix seconds). */
  date: number;
  result: 'first' | 'reentry' | 'out' | 'refused';
  reason: D<string>;
  nonce: string | null;
  /** `direction:activityID:personID:date`, unique per event: the same scan twice is one row. */
  scanKey: string;
  /** The person whose token scanned. */
  deviceID: number;
  /** Unix ms. */
  createdAt: number;
}

/** The code of a cancelled registration (migration 0034): a door says so rather than "unknown code". */
export interface CancelledCodeTable {
  eventID: number;
  /** Hex SHA-256 of the qrCode. */
  codeHash: string;
  /** Unix seconds. */
  cancelledAt: number;
}

/** An event's discount code (migration 0013, docs/api/coupons.md). */
export interface CouponTable {
  couponID: D<number>;
  eventID: number;
  code: string;
  discount: number;
  used: D<number>;
  /** 0: no limit. */
  maxUses: D<number>;
  /** Unix seconds; 0: never. */
  expires: D<number>;
  createdAt: number;
}

/** Whether a person is inside an entrance now (migration 0012). */
export interface CheckStateTable {
  eventID: number;
  activityID: number;
  personID: number;
  inside: number;
  entries: number;
  firstAt: number;
  lastAt: number;
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
  activity: ActivityTable;
  activityPerson: ActivityPersonTable;
  chain: ChainTable;
  activityChain: { chainID: number; activityID: number };
  list: ListTable;
  listPerson: { listID: number; personID: number };
  activityList: { activityID: number; listID: number };
  speaker: SpeakerTable;
  sponsor: SponsorTable;
  activitySpeaker: { activityID: number; speakerID: number };
  activitySponsor: { activityID: number; sponsorID: number };
  activityTag: { activityID: number; tagID: number };
  eventPersonTag: { eventID: number; personID: number; tagID: number };
  hotsite: HotsiteTable;
  feedback: FeedbackTable;
  feedbackAnswer: FeedbackAnswerTable;
  eventInvite: { eventID: number; email: string; dateCreated: D<number> };
  confirmation: ConfirmationTable;
  accessCodeFailure: AccessCodeFailureTable;
  change: ChangeTable;
  job: JobTable;
  programChange: ProgramChangeTable;
  webPush: WebPushTable;
  webPushActivity: { pushID: number; activityID: number };
  webhook: WebhookTable;
  webhookDelivery: WebhookDeliveryTable;
  webhookAttempt: WebhookAttemptTable;
  webhookFeed: WebhookFeedTable;
  emailLog: EmailLogTable;
  eventEmail: EventEmailTable;
  eventBlacklist: EventBlacklistTable;
  checklog: ChecklogTable;
  cancelledCode: CancelledCodeTable;
  checkState: CheckStateTable;
  coupon: CouponTable;
  chat: ChatTable;
  comment: CommentTable;
  commentTag: CommentTagTable;
  errorReport: ErrorReportTable;
  eventTicket: { eventID: number; price: number; currency: D<string> };
  budget: BudgetTable;
  budgetLog: BudgetLogTable;
  ad: AdTable;
  caseStudy: CaseStudyTable;
  eventApplicant: EventApplicantTable;
  eventGuest: EventGuestTable;
  eventSender: EventSenderTable;
  eventSanity: EventSanityTable;
  smsLog: SmsLogTable;
  download: DownloadTable;
  downloadChunk: { downloadID: number; attempt: number; seq: number; data: Uint8Array };
  beacon: BeaconTable;
  beaconEvent: BeaconEventTable;
  beaconAction: BeaconActionTable;
  beaconLog: BeaconLogTable;
  eventBooking: EventBookingTable;
  eventBookingStock: { eventID: number; item: string; total: number; booked: D<number> };
  crmLink: CrmLinkTable;
  searchIndex: SearchIndexTable;
  /** Attendees whose search documents are to be written again (migration 0027, resources/search/pending.ts). */
  searchPending: { pendingID: Generated<number>; eventID: number; personID: number };
  daemon: DaemonTable;
  daemonError: { daemonID: number; item: number; error: string };
}

/**
 * One document of the search index (migration 0025, docs/api/search.md): an FTS5 table on SQLite, a
 * table with a GIN-indexed `doc` tsvector on PostgreSQL (written and read with raw SQL in
 * resources/search/repository.ts; this type serves the few plain deletes).
 */
export interface SearchIndexTable {
  eventID: number;
  type: string;
  objectID: number;
  title: string;
  body: string;
  more: string;
  scope: string;
}

/** Migration 0022: a bulk operation run as a job, item by item (docs/api/daemons.md). */
export interface DaemonTable {
  daemonID: D<number>;
  companyID: number;
  eventID: number;
  personID: number;
  scope: 'system' | 'event';
  /** The asker's token's event (event scope), else 0. */
  scopeTargetID: D<number>;
  /** The daemon operation (`bulk`). */
  operation: string;
  target: string;
  targetID: D<number>;
  resourceID: D<number>;
  resourceType: string;
  /** The items, JSON. */
  resources: string;
  /** The target's extra parameters, JSON. */
  extra: D<string>;
  state: 'queued' | 'running' | 'done' | 'failed';
  total: number;
  done: D<number>;
  applied: D<number>;
  failed: D<number>;
  error: D<string>;
  date: number;
  started: D<number>;
  finished: D<number>;
}

/** An expense of an event (migration 0016, docs/api/budgets.md). */
export interface BudgetTable {
  budgetID: D<number>;
  eventID: number;
  title: D<string>;
  description: D<string>;
  type: 'raw' | 'totalLodging' | 'totalFlight' | 'totalShuttle';
  category: D<string>;
  supplier: D<string>;
  status: D<string>;
  /** Minor units (cents). */
  price: number;
  date: number;
}

/** One change of an expense (migration 0016); budgetID is not a foreign key: the history outlives the expense. */
export interface BudgetLogTable {
  budgetLogID: D<number>;
  eventID: number;
  budgetID: number;
  personID: number;
  key: string;
  oldValue: D<string>;
  newValue: D<string>;
  date: number;
}

/** An ad of a sponsor of the event (migration 0016, docs/api/ads.md). */
export interface AdTable {
  adID: D<number>;
  eventID: number;
  sponsorID: number;
  image: D<string>;
  link: D<string>;
  weight: D<number>;
  main: D<number>;
  splash: D<number>;
}

/** An event's case study, at most one (migration 0016, docs/api/cases.md). */
export interface CaseStudyTable {
  caseID: D<number>;
  eventID: number;
  attendees: D<number>;
  downloads: D<number>;
  impressions: D<number>;
  headline: D<string>;
  challenges: D<string>;
  solution: D<string>;
  results: D<string>;
  videoKey: D<string>;
  slideKey: D<string>;
  date: number;
  active: D<number>;
}

/** An application to an event that needs approval (migration 0014, docs/api/applicants.md). */
export type EventApplicantTable = {
  eventID: number;
  personID: number;
  passwordHash: D<string>;
  /** JSON list of [feedbackID, value]. */
  answers: D<string>;
  /** JSON list of attendee tagIDs. */
  tagIDs: D<string>;
  rsvp: D<number>;
  private: D<number>;
  origin: D<string>;
  /** The language the applicant chose (migration 0033; '' = none: the event's). */
  language: D<string>;
  /** 0: waiting for a decision; 1: approved. */
  approved: D<number>;
  dateCreated: number;
  approvedDate: D<number>;
} & {
  [
    K in 'username' | 'email' | 'firstName' | 'lastName' | 'name' | 'image' | 'role' | 'company' | 'telephone'
  ]: D<string>;
};

/** A guest an attendee brings to an event (migration 0014, docs/api/guests.md). */
export interface EventGuestTable {
  eventGuestID: D<number>;
  eventID: number;
  hostID: number;
  name: string;
  email: D<string>;
  dateCreated: number;
}

/** Migration 0017: an asynchronous spreadsheet report (the download center). */
export interface DownloadTable {
  downloadID: D<number>;
  companyID: number;
  /** 0: a company report. */
  eventID: D<number>;
  personID: number;
  scope: 'system' | 'event';
  targetID: D<number>;
  title: string;
  type: string;
  /** The operation's parameters, JSON. */
  params: string;
  secret: string;
  state: 'queued' | 'running' | 'ready' | 'failed';
  rows: D<number>;
  size: D<number>;
  attempt: D<number>;
  error: D<string>;
  date: number;
  finished: D<number>;
  expires: D<number>;
}

/** Migration 0010: one message the platform means to send, keyed by what it is for (idem). */
export interface EmailLogTable {
  emailLogID: D<number>;
  eventID: number;
  personID: D<number>;
  eventEmailID: D<number>;
  kind: 'confirmation' | 'custom' | 'test';
  idem: string;
  messageID: D<string>;
  from: D<string>;
  to: D<string>;
  subject: D<string>;
  status: D<'queued' | 'sending' | 'sent' | 'failed' | 'skipped' | 'unknown'>;
  reason: D<string>;
  opens: D<number>;
  attempts: D<number>;
  /** The billing row this message's unit of the e-mail balance was taken from; 0: none held (migration 0028). */
  billingID: D<number>;
  date: number;
  updatedDate: number;
}

export interface EventEmailTable {
  eventEmailID: D<number>;
  eventID: number;
  subject: string;
  text: string;
  listID: D<number>;
  state: D<string>;
  sent: D<number>;
  cursor: D<number>;
  tracking: D<number>;
  date: number;
}

export interface EventBlacklistTable {
  eventBlacklistID: D<number>;
  eventID: number;
  email: string;
  reason: D<string>;
  date: number;
}

/** Migration 0018: an event's own sender and its domain's DNS checks. */
export interface EventSenderTable {
  senderID: D<number>;
  eventID: number;
  personID: number;
  senderName: D<string>;
  senderEmail: D<string>;
  senderDNS: D<string>;
  state: D<'' | 'checking' | 'verified' | 'unverified'>;
  checkedDate: D<number>;
  date: number;
}

/** Migration 0018: the check of one attendee address of an event. */
export interface EventSanityTable {
  eventSanityID: D<number>;
  eventID: number;
  email: string;
  clean: D<number>;
  reason: D<string>;
  manual: D<number>;
  date: number;
}

/** Migration 0018: one text message asked for through event.sendSMS. */
export interface SmsLogTable {
  smsLogID: D<number>;
  eventID: number;
  telephone: string;
  text: string;
  address: D<string>;
  status: D<'queued' | 'sending' | 'sent' | 'failed' | 'skipped' | 'unknown'>;
  reason: D<string>;
  date: number;
  updatedDate: number;
}

export type Person = Selectable<PersonTable>;
export type Company = Selectable<CompanyTable>;
export type Event = Selectable<EventTable>;
export type NewEvent = Insertable<EventTable>;
export type EventUpdate = Updateable<EventTable>;

/** A chat message between two people of one event (migration 0015, docs/api/chat.md). */
export interface ChatTable {
  chatID: D<number>;
  eventID: number;
  senderID: number;
  receiverID: number;
  /** Sanitized plain text. */
  message: string;
  /** Unix seconds. */
  date: number;
  viewed: D<number>;
}

/** A comment on a session (migration 0015, docs/api/comments.md). */
export interface CommentTable {
  commentID: D<number>;
  eventID: number;
  activityID: number;
  personID: number;
  /** Sanitized plain text. */
  text: string;
  date: number;
  /** Unix seconds of the last edit of the text; 0: never edited. */
  updatedDate: D<number>;
  approved: D<number>;
}

/** One #hashtag of a comment (lower case, no '#'). */
export interface CommentTagTable {
  commentID: number;
  activityID: number;
  tag: string;
}

/** A client's error report (migration 0015, docs/api/errors.md); secrets redacted before storing. */
export interface ErrorReportTable {
  errorID: D<number>;
  /** 0: reported without a token. */
  personID: D<number>;
  eventID: number | null;
  companyID: number | null;
  platform: string;
  message: string;
  stackTrace: D<string>;
  initialConfiguration: D<string>;
  build: D<string>;
  json: D<string>;
  /** The reporter's network (/24, /48). */
  address: D<string>;
  date: number;
  solved: D<number>;
}

/** A physical beacon of a company (migration 0019, docs/api/beacons.md). */
export interface BeaconTable {
  beaconID: D<number>;
  companyID: number;
  /** iBeacon proximity UUID, lower case with dashes. */
  uuid: string;
  major: number;
  minor: number;
  name: D<string>;
  date: number;
}

/** A beacon bound to an event (migration 0019; spec §2.6 Beacon event). */
export interface BeaconEventTable {
  beaconEventID: D<number>;
  eventID: number;
  beaconID: number;
  type: D<string>;
  range: D<string>;
  extra: D<string>;
  date: number;
}

/** What attendees near a bound beacon are shown (migration 0019; Podium's design, docs/api/beacons.md). */
export interface BeaconActionTable {
  beaconActionID: D<number>;
  beaconEventID: number;
  eventID: number;
  type: 'message' | 'url';
  title: string;
  message: D<string>;
  url: D<string>;
  active: D<number>;
  date: number;
}

/** A person met a beacon action (migration 0019). */
export interface BeaconLogTable {
  beaconLogID: D<number>;
  eventID: number;
  beaconEventID: number;
  beaconActionID: number;
  personID: number;
  date: number;
}

/** An item reservation of an event (migration 0020, docs/api/bookings.md). */
export interface EventBookingTable {
  bookingID: D<number>;
  eventID: number;
  /** The generated reference (event.booking.get Q value). */
  value: string;
  source: D<string>;
  used: D<number>;
  usedDate: D<number>;
  name: string;
  email: string;
  telephone: D<string>;
  company: D<string>;
  dataCollectors: D<number>;
  liveSupport: D<number>;
  extraPhone: D<number>;
  extraLive: D<number>;
  automaticReport: D<number>;
  beacons: D<number>;
  pricing: D<string>;
  personID: number;
  dateCreated: number;
}

/** An event's link to the CRM provider (migration 0021, docs/api/crmfeed.md). */
export interface CrmLinkTable {
  eventID: number;
  companyID: number;
  /** The event's token at the provider, sealed (src/platform/resources/crmfeed/secret.ts). */
  token: string;
  /** Its last four characters, for the mask crmfeed.get shows. */
  tokenHint: D<string>;
  personID: number;
  linkedAt: number;
  communityId: D<string>;
  communityUrl: D<string>;
  communityName: D<string>;
  groupId: D<string>;
  groupName: D<string>;
  /** '' | queued | running | done | failed. */
  syncStatus: D<string>;
  syncRun: D<number>;
  syncCursor: D<number>;
  syncPushed: D<number>;
  syncTotal: D<number>;
  syncQueuedAt: D<number>;
  syncFinishedAt: D<number>;
  syncError: D<string>;
}
