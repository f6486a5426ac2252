import { css } from 'lit';

// The agenda answers to its own width, not the page's (container queries on the host): below 48em (a
// phone, a sidebar) the filters fold and a grid the visitor picks scrolls sideways in its box (the agenda
// opens as the list there, see willUpdate). A container's width does not
// come from its content, so in a flex row it would shrink to nothing: it grows instead (the page's own
// flex rules win over :host).
export const styles = css`
  :host {
    container-type: inline-size;
    flex-grow: 1;
  }
  .toolbar {
    display: flex;
    flex-wrap: wrap;
    gap: 0.75em;
    align-items: end;
    margin-bottom: 0.75em;
  }
  .control {
    display: grid;
    gap: 0.25em;
    flex: 1 1 10em;
  }
  .search {
    flex-basis: 100%;
  }
  .fields {
    display: contents;
  }
  .buttons {
    display: flex;
    flex-wrap: wrap;
    gap: 0.5em;
  }
  /* A row that scrolls sideways (the day tabs): room for the focus ring, its end fades while there is
     more to see, and an item that gets the focus scrolls clear of the fade. */
  .scroll {
    overflow-x: auto;
    padding: 5px 5px 0;
    scroll-padding-inline: 2em;
  }
  .scroll::after {
    content: '';
    position: sticky;
    right: 0;
    flex: none;
    width: 2em;
    background: linear-gradient(to right, #fff0, var(--_bg));
    pointer-events: none;
  }
  .segmented {
    display: inline-flex;
  }
  .segmented .button:not(:first-child) {
    border-top-left-radius: 0;
    border-bottom-left-radius: 0;
  }
  .segmented .button:not(:last-child) {
    border-top-right-radius: 0;
    border-bottom-right-radius: 0;
    border-right: 0;
  }
  /* A toggle not pressed is outlined; pressed, it is filled and ticked (not by color alone). */
  .secondary {
    background: var(--_bg);
    color: var(--_pt);
  }
  .button[aria-pressed='true'],
  [role='tab'][aria-selected='true'] {
    background: var(--_p);
    color: var(--_op);
    border-color: var(--_p);
  }
  .more::after {
    content: ' ▾' / '';
  }
  .more[aria-expanded='true']::after {
    content: ' ▴' / '';
  }
  .button[aria-pressed='true']::before {
    content: '✓ ' / '';
  }
  .summary {
    font-size: 0.875em;
  }
  .tabs {
    position: relative;
    display: flex;
    gap: 0.25em;
    border-bottom: 2px solid var(--_b);
    margin-bottom: 1em;
  }
  [role='tab'] {
    flex: none;
    min-height: 44px;
    padding: 0.5em 1em;
    border: 1px solid transparent;
    border-radius: var(--_r) var(--_r) 0 0;
    background: none;
    cursor: pointer;
    white-space: nowrap;
  }
  .now {
    display: grid;
    grid-template-columns: repeat(auto-fit, minmax(14em, 1fr));
    gap: 1em;
    margin-bottom: 1em;
  }
  .nn {
    margin-bottom: 0.5em;
  }
  .now h2 {
    font-size: 1em;
  }
  .now ul {
    margin: 0;
    padding-left: 1.25em;
  }
  .day h2,
  caption h2 {
    font-size: 1.125em;
  }
  .day + .day h2 {
    margin-top: 1em;
  }
  .sessions {
    list-style: none;
    margin: 0;
    padding: 0;
    display: grid;
    gap: 0.75em;
  }
  .session {
    padding: 0.75em 1em;
    border: 1px solid var(--_b);
    border-radius: var(--_r);
    background: var(--_s);
  }
  .highlight {
    border-left: 4px solid var(--_p);
  }
  .head {
    display: flex;
    justify-content: space-between;
    align-items: start;
    gap: 0.5em;
  }
  .when,
  .speakers {
    font-size: 0.875em;
    margin: 0;
  }
  .title {
    font-size: 1.0625em;
    margin: 0.25em 0;
    font-weight: 600;
  }
  .badge {
    padding: 0 0.5em;
    border: 1px solid var(--_p);
    border-radius: 1em;
    background: var(--_p);
    color: var(--_op);
    font-weight: 600;
    white-space: nowrap;
  }
  .hl {
    background: none;
    color: var(--_pt);
  }
  .fav {
    flex: none;
    min-width: 44px;
    min-height: 44px;
    border: 0;
    border-radius: var(--_r);
    background: none;
    color: var(--_pt);
    font-size: 1.5em;
    line-height: 1;
    cursor: pointer;
  }
  .tags {
    display: flex;
    flex-wrap: wrap;
    gap: 0.25em;
    list-style: none;
    margin: 0.5em 0 0;
    padding: 0;
  }
  .tag {
    padding: 0 0.5em;
    border: 1px solid var(--tag, var(--_b));
    border-left-width: 0.5em;
    border-radius: var(--_r);
    font-size: 0.8125em;
  }
  details {
    margin-top: 0.5em;
  }
  summary {
    cursor: pointer;
    color: var(--_pt);
    min-height: 24px;
  }
  .description :is(p, ul, ol) {
    margin: 0.5em 0;
  }
  a {
    color: var(--_pt);
  }
  /* The grid fits its container (no scrolling box, so the room names can stick to the page's top). Its
     inner container is 48em at least: in a narrow agenda the box scrolls sideways (below), and the cells
     take the wide styles from it. */
  .wide > div {
    container-type: inline-size;
    min-width: 48em;
  }
  table {
    table-layout: fixed;
    width: 100%;
    border-collapse: collapse;
    margin-bottom: 1.5em;
  }
  /* The day is a heading in the grid too (as in the list), so a screen reader's headings keep the day level. */
  caption {
    text-align: start;
    padding: 0.5em 0 0;
  }
  th,
  td {
    border: 1px solid var(--_b);
    padding: 0.25em;
    vertical-align: top;
    text-align: start;
    /* break-word, not anywhere: a word breaks only when it cannot fit a line of its own (a long room
       name, a URL), never because it did not fit beside something else on its line. */
    overflow-wrap: break-word;
  }
  th:first-child {
    width: 4.5em;
  }
  thead th {
    position: sticky;
    top: var(--podium-sticky-top, 0);
    background: var(--_bg);
  }
  /* A row as long as its time: 0.25em a minute (a 45-minute talk is 180 px), more if its text needs it. */
  tbody tr {
    height: calc(var(--len) * 0.25em);
  }
  td {
    height: 1px;
  }
  td .session {
    height: 100%;
  }
  .break {
    text-align: center;
    vertical-align: middle;
    background: var(--_s);
  }
  @container (min-width: 48em) {
    .more {
      display: none;
    }
    td :is(.room, .tags, details) {
      display: none;
    }
    /* A cell is narrow (six rooms in 60em give 8em each): the star sits in the card's corner and the
       time and badges flow around a float of its size, so that a badge too wide to sit beside it goes
       below it instead of under it (a highlight's badge ran past the card, under the star). */
    td .session {
      position: relative;
      padding: 0.5em;
    }
    td .head {
      display: block;
    }
    td .when::before {
      content: '';
      float: right;
      width: 44px;
      height: 44px;
      margin-left: 0.25em;
    }
    /* The float is taller than the time line: the title starts below it, as in the site's grid, so the
       title has the card's full width on every line (beside the float its first line was some 100 px in a
       1120 px agenda, and words broke there: "Worksho / p: Event / Check-in") and never runs under the
       star. */
    td .title {
      clear: right;
    }
    /* Over the float exactly: the card's 0.5em padding, in the star's own font (1.5em). At 0.5em of its
       own font it sat 0.25em lower than the float (and as far in), and a title clear of the float ran
       under it. */
    td .fav {
      position: absolute;
      top: calc(0.5em / 1.5);
      right: calc(0.5em / 1.5);
    }
  }
  /* Narrow: the filters fold under their button and the toggles wrap beside it, every one in view (a row
     that scrolled sideways hid the last ones past the edge), so that a phone's first screen still shows
     the first session. */
  @container (max-width: 47.99em) {
    .toolbar:not(.open) .fields,
    .now:not(.open) {
      display: none;
    }
    .wide {
      overflow-x: auto;
    }
    .toolbar {
      gap: 0.5em;
      align-items: center;
      margin-bottom: 0.5em;
    }
    .tabs {
      margin-bottom: 0.5em;
    }
    .fields {
      display: flex;
      flex-wrap: wrap;
      gap: 0.5em 0.75em;
      flex-basis: 100%;
    }
    .buttons {
      display: contents;
    }
    .button {
      padding-inline: 0.75em;
    }
  }
`;
