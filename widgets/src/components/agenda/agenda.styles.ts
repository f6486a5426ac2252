import { css } from 'lit';

export const styles = css`
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
  .buttons {
    display: flex;
    flex-wrap: wrap;
    gap: 0.5em;
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
  .button[aria-pressed='true'],
  [role='tab'][aria-selected='true'] {
    background: var(--_p);
    color: var(--_op);
    border-color: var(--_p);
  }
  .summary {
    font-size: 0.875em;
  }
  .tabs {
    display: flex;
    gap: 0.25em;
    overflow-x: auto;
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
  .now h2 {
    font-size: 1em;
  }
  .now ul {
    margin: 0;
    padding-left: 1.25em;
  }
  .day h2 {
    font-size: 1.125em;
    margin-top: 1em;
  }
  .sessions {
    list-style: none;
    margin: 0;
    padding: 0;
    display: grid;
    gap: 0.75em;
  }
  .session,
  .cell {
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
    border-radius: 1em;
    background: var(--_p);
    color: var(--_op);
    font-weight: 600;
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
  .grid-wrap {
    overflow-x: auto;
    margin-bottom: 1.5em;
  }
  table {
    border-collapse: collapse;
    min-width: 100%;
  }
  caption {
    text-align: start;
    font-weight: 600;
    font-size: 1.125em;
    padding: 0.5em 0;
  }
  th,
  td {
    border: 1px solid var(--_b);
    padding: 0.25em;
    vertical-align: top;
    text-align: start;
  }
  td {
    min-width: 12em;
  }
  .cell {
    height: 100%;
    padding: 0.5em;
  }
  .cell .fav {
    float: right;
  }
`;
