import { css } from 'lit';

export const styles = css`
  form {
    display: grid;
    gap: 1em;
  }
  .field {
    display: grid;
    gap: 0.25em;
    margin: 0;
    padding: 0;
    border: 0;
    min-width: 0;
  }
  .check {
    display: flex;
    align-items: start;
  }
  .check label {
    font-weight: 400;
  }
  .required,
  .error {
    color: var(--_d);
  }
  .help,
  .error {
    font-size: 0.875em;
    margin: 0;
  }
  .help a {
    color: var(--_pt);
  }
  button {
    justify-self: start;
  }
`;
