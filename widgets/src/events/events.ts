// Every event a Podium widget dispatches: a CustomEvent named `podium-…` that bubbles and crosses shadow
// roots (composed), so a page can listen on the element, or on document for every widget.

/** Detail of `podium-registered`. */
export interface RegisteredDetail {
  eventID: number;
  /**
   * 0 when `duplicate` is true: the platform tells a visitor who sends a registered address again
   * neither whose registration it is nor its state (then `approved` and `applied` are false too).
   */
  personID: number;
  email: string;
  /** true: the person is an attendee; false: on the waiting list, or an application (`applied`). */
  approved: boolean;
  /**
   * true: the event needs approval and this is an application (the platform's `approved` `-1`): the
   * person is not an attendee until the organizer approves them; `approved` is false.
   */
  applied: boolean;
  /** true: the e-mail was already registered (nothing changed; see personID). */
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

/**
 * The class of the events named `type` (one function for the four: each class is a line of the bundle).
 * `new PodiumRegisteredEvent(detail)` and `instanceof` work as with a class statement.
 */
const podiumEvent = <T>(type: string) =>
  class extends CustomEvent<T> {
    constructor(detail: T) {
      super(type, { bubbles: true, composed: true, detail });
    }
  };

/** An attendee was registered (or found already registered), or a person applied (`applied`). */
export const PodiumRegisteredEvent = podiumEvent<RegisteredDetail>('podium-registered');
export type PodiumRegisteredEvent = InstanceType<typeof PodiumRegisteredEvent>;

/** A call to the platform failed (loading, submitting, checking a code). */
export const PodiumErrorEvent = podiumEvent<ErrorDetail>('podium-error');
export type PodiumErrorEvent = InstanceType<typeof PodiumErrorEvent>;

/** An access gate accepted its code; the grant now reaches every widget of that event on the page. */
export const PodiumUnlockedEvent = podiumEvent<UnlockedDetail>('podium-unlocked');
export type PodiumUnlockedEvent = InstanceType<typeof PodiumUnlockedEvent>;

/** The visitor changed their favourite sessions in an agenda. */
export const PodiumFavouritesChangeEvent = podiumEvent<FavouritesChangeDetail>('podium-favourites-change');
export type PodiumFavouritesChangeEvent = InstanceType<typeof PodiumFavouritesChangeEvent>;

declare global {
  interface GlobalEventHandlersEventMap {
    'podium-registered': PodiumRegisteredEvent;
    'podium-error': PodiumErrorEvent;
    'podium-unlocked': PodiumUnlockedEvent;
    'podium-favourites-change': PodiumFavouritesChangeEvent;
  }
}
