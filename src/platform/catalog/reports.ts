import type { AnyOperation } from '../kernel/table.ts';

// The lists format=excel-daemon takes (kernel/table.ts isReportOperation), each loaded on its own: the
// report job (src/platform/reports/build.ts) imports only the operation it runs, not the operation table
// (catalog/index.ts: 369 modules, about 30 MB of a worker's memory). The table stays the source of truth:
// tests/lint/report-operations.test.ts checks that this lists exactly its report operations, each
// loading the table's own handler — a new paging .find fails there until it is added here.

const one = (list: readonly AnyOperation[], name: string): AnyOperation => list.find((op) => op.name === name)!;

export const REPORT_OPERATIONS: Readonly<Record<string, () => Promise<AnyOperation>>> = {
  'company.find': () => import('../resources/company/operations/find.ts').then((m) => m.default),
  'company.person.find': () => import('../resources/company/operations/person/find.ts').then((m) => m.default),
  'company.event.find': () => import('../resources/company/operations/event/find.ts').then((m) => m.default),
  'event.accessCode.find': () => import('../resources/event/operations/accessCode/find.ts').then((m) => m.default),
  'activity.find': () => import('../resources/activity/operations/find.ts').then((m) => m.default),
  'chain.find': () =>
    import('../resources/chain/operations/index.ts').then((m) => one(m.chainOperations, 'chain.find')),
  'activity.chain.find': () => import('../resources/activity/operations/links.ts').then((m) => m.activityChainFind),
  'list.find': () => import('../resources/list/operations/index.ts').then((m) => one(m.listOperations, 'list.find')),
  'list.person.find': () => import('../resources/list/operations/person/find.ts').then((m) => m.default),
  'activity.list.find': () => import('../resources/activity/operations/links.ts').then((m) => m.activityListFind),
  'activity.speaker.find': () => import('../resources/activity/operations/speaker/find.ts').then((m) => m.default),
  'activity.sponsor.find': () => import('../resources/activity/operations/sponsor/find.ts').then((m) => m.default),
  'activity.tag.find': () => import('../resources/activity/operations/tag/find.ts').then((m) => m.default),
  'activity.person.find': () => import('../resources/activity/operations/person/find.ts').then((m) => m.default),
  'speaker.find': () =>
    import('../resources/speaker/operations/index.ts').then((m) => one(m.speakerOperations, 'speaker.find')),
  'sponsor.find': () =>
    import('../resources/sponsor/operations/index.ts').then((m) => one(m.sponsorOperations, 'sponsor.find')),
  'tag.find': () => import('../resources/tag/operations/index.ts').then((m) => one(m.tagOperations, 'tag.find')),
  'company.tag.find': () => import('../resources/company/operations/tag/find.ts').then((m) => m.default),
  'event.tag.find': () => import('../resources/event/operations/tag/find.ts').then((m) => m.default),
  'event.hotsite.find': () =>
    import('../resources/hotsite/operations/index.ts').then((m) => one(m.hotsiteOperations, 'event.hotsite.find')),
  'event.person.find': () => import('../resources/event/operations/person/find.ts').then((m) => m.default),
  'feedback.find': () =>
    import('../resources/feedback/operations/index.ts').then((m) => one(m.feedbackOperations, 'feedback.find')),
  'event.invite.find': () => import('../resources/event/operations/invite/find.ts').then((m) => m.default),
  'event.blacklist.find': () => import('../resources/email/operations/blacklist-find.ts').then((m) => m.default),
  'event.sender.find': () =>
    import('../resources/sender/operations/index.ts').then((m) => one(m.senderOperations, 'event.sender.find')),
  'event.sanity.find': () =>
    import('../resources/sanity/operations/index.ts').then((m) => one(m.sanityOperations, 'event.sanity.find')),
  'checklog.find': () =>
    import('../resources/checklog/operations/index.ts').then((m) => one(m.checklogOperations, 'checklog.find')),
  'event.applicant.find': () =>
    import('../resources/applicant/operations/index.ts').then((m) =>
      one(m.applicantOperations, 'event.applicant.find'),
    ),
  'event.guest.find': () =>
    import('../resources/guest/operations/index.ts').then((m) => one(m.guestOperations, 'event.guest.find')),
  'event.booking.find': () =>
    import('../resources/booking/operations/index.ts').then((m) => one(m.bookingOperations, 'event.booking.find')),
  'webhook.find': () => import('../resources/webhook/operations/find.ts').then((m) => m.default),
  'webhook.delivery.find': () => import('../resources/webhook/operations/delivery/find.ts').then((m) => m.default),
  'budget.find': () =>
    import('../resources/budget/operations/index.ts').then((m) => one(m.budgetOperations, 'budget.find')),
  'budget.log.find': () =>
    import('../resources/budget/operations/index.ts').then((m) => one(m.budgetOperations, 'budget.log.find')),
  'case.find': () =>
    import('../resources/casestudy/operations/index.ts').then((m) => one(m.caseOperations, 'case.find')),
  'beacon.find': () => import('../resources/beacon/operations/beacon.ts').then((m) => m.beaconFind),
  'beacon.event.find': () => import('../resources/beacon/operations/event.ts').then((m) => m.beaconEventFind),
  'beacon.action.find': () => import('../resources/beacon/operations/action.ts').then((m) => m.beaconActionFind),
  'daemon.find': () => import('../resources/daemon/operations/find.ts').then((m) => m.default),
  'chat.find': () => import('../resources/chat/operations/index.ts').then((m) => one(m.chatOperations, 'chat.find')),
  'comment.find': () =>
    import('../resources/comment/operations/index.ts').then((m) => one(m.commentOperations, 'comment.find')),
  'error.find': () =>
    import('../resources/error/operations/index.ts').then((m) => one(m.errorOperations, 'error.find')),
  'download.find': () =>
    import('../resources/download/operations/index.ts').then((m) => one(m.downloadOperations, 'download.find')),
};
