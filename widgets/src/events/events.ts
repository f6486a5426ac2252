// Every event a Podium widget dispatches: a CustomEvent named `podium-…` that bubbles and crosses shadow
// roots (composed), so a page can listen on the element, or on document for every widget.

/** Detail of `podium-registered`. */
export interface RegisteredDetail {
  eventID: number;
  personID: number;
  email: string;
  /** true: the person is an attendee; false: on the waiting list, or an application (`applied`). */
  approved: boolean;
  /**
   * true: the event needs approval and this is an application (the platform's `approved` `-1`): the
   * person is not an attendee until the organizer approves them; `approved` is false.
   */
  applied: boolean;
  /** true: the e-mail was already registered (nothing changed). */
  duplicate: boolean;
}

/** Detail of `podium-error`: a call that failed, with the platform's status and message. */
export interface ErrorDetail {
  /** The operation that failed, e.g. `form.respondRegistration`. */
  operation: string;
  /** HTTP status; 0 when the platform could not be reached. */
  status: number;
  message: string;
}

/** Detail of `podium-unlocked`: an access gate accepted the code of this event. */
export interface UnlockedDetail {
  eventID: number;
}

/** Detail of `podium-favourites-change`: the visitor starred or unstarred a session. */
export interface FavouritesChangeDetail {
  eventID: number;
  activityID: number;
  favourite: boolean;
  /** Every favourite of the event after the change. */
  favourites: number[];
}

class PodiumEvent<T> extends CustomEvent<T> {
  constructor(type: string, detail: T) {
    super(type, { bubbles: true, composed: true, detail });
  }
}

/** An attendee was registered (or found already registered), or a person applied (`applied`). */
export class PodiumRegisteredEvent extends PodiumEvent<RegisteredDetail> {
  constructor(detail: RegisteredDetail) {
    super('podium-registered', detail);
  }
}

/** A call to the platform failed (loading, submitting, checking a code). */
export class PodiumErrorEvent extends PodiumEvent<ErrorDetail> {
  constructor(detail: ErrorDetail) {
    super('podium-error', detail);
  }
}

/** An access gate accepted its code; the grant now reaches every widget of that event on the page. */
export class PodiumUnlockedEvent extends PodiumEvent<UnlockedDetail> {
  constructor(detail: UnlockedDetail) {
    super('podium-unlocked', detail);
  }
}

/** The visitor changed their favourite sessions in an agenda. */
export class PodiumFavouritesChangeEvent extends PodiumEvent<FavouritesChangeDetail> {
  constructor(detail: FavouritesChangeDetail) {
    super('podium-favourites-change', detail);
  }
}

declare global {
  interface GlobalEventHandlersEventMap {
    'podium-registered': PodiumRegisteredEvent;
    'podium-error': PodiumErrorEvent;
    'podium-unlocked': PodiumUnlockedEvent;
    'podium-favourites-change': PodiumFavouritesChangeEvent;
  }
}
