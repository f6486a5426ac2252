import { css } from 'lit';

export const styles = css`
  form {
    max-width: 32em;
  }
  .row {
    display: flex;
    gap: 0.5em;
    margin-top: 0.25em;
  }
  input {
    max-width: 8em;
    letter-spacing: 0.2em;
  }
  #message {
    margin: 0.5em 0 0;
  }
  #message:empty {
    display: none;
  }
  #robot {
    margin: 0;
  }
  #robot:not(:empty) {
    margin-top: 0.5em;
  }
  /* The content (the only div that takes the focus) is focused from script after an unlock: a place
     to go on from, not a control. */
  div:focus {
    outline: none;
  }
`;
