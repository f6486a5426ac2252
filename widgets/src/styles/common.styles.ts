import { css } from 'lit';

/**
 * What every widget shares: the site's theme custom properties with the defaults themeVars() gives
 * (a test checks them), controls, buttons, focus ring, panels and visually hidden text.
 */
export const common = css`
  :host {
    display: block;
    --_p: var(--podium-color-primary, #1d4ed8);
    --_op: var(--podium-color-on-primary, #fff);
    --_pt: var(--podium-color-primary-text, #1d4ed8);
    --_m: var(--podium-color-muted, #6a6a6a);
    --_bg: var(--podium-color-bg, #fff);
    --_s: var(--podium-color-surface, #f6f6f6);
    --_b: var(--podium-color-border, #d6d6d6);
    --_r: var(--podium-radius, 8px);
    --_d: var(--podium-color-danger, #b42318);
    font-family: var(--podium-font-family, system-ui, sans-serif);
    color: var(--podium-color-text, #1a1a1a);
    line-height: 1.5;
  }
  :host([hidden]) {
    display: none;
  }
  * {
    box-sizing: border-box;
  }
  :focus-visible {
    outline: 3px solid var(--podium-color-focus, #1d4ed8);
    outline-offset: 2px;
  }
  p,
  h2 {
    margin: 0 0 0.5em;
  }
  label,
  legend {
    font-weight: 600;
  }
  input,
  select,
  textarea,
  button {
    font: inherit;
    color: inherit;
  }
  input,
  select,
  textarea {
    width: 100%;
    min-height: 44px;
    padding: 0.5em;
    border: 1px solid var(--podium-color-input-border, #929292);
    border-radius: var(--_r);
    background: var(--_bg);
  }
  [type='checkbox'] {
    width: 1.25em;
    min-height: 1.25em;
    margin: 0.15em 0.5em 0 0;
    flex: none;
    accent-color: var(--_p);
  }
  [aria-invalid='true'] {
    border-color: var(--_d);
  }
  .button {
    min-height: 44px;
    padding: 0.5em 1.25em;
    border: 1px solid var(--_p);
    border-radius: var(--_r);
    background: var(--_p);
    color: var(--_op);
    font-weight: 600;
    cursor: pointer;
  }
  [aria-disabled='true'] {
    opacity: 0.7;
    cursor: progress;
  }
  .muted {
    color: var(--_m);
  }
  /* Free text in a panel (an e-mail address, a long name) wraps anywhere rather than widen the page. */
  .panel {
    padding: 1em;
    border: 1px solid var(--_b);
    border-radius: var(--_r);
    background: var(--_s);
    overflow-wrap: anywhere;
  }
  .sr-only {
    position: absolute;
    width: 1px;
    height: 1px;
    overflow: hidden;
    clip-path: inset(50%);
    white-space: nowrap;
  }
`;
