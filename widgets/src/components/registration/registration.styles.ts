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
  /* "Already registered? Get your link": a link's look (it is not the form's action), a button's target. */
  .link {
    min-height: 44px;
    margin-top: 0.5em;
    padding: 0;
    border: 0;
    background: none;
    color: var(--_pt);
    text-decoration: underline;
    cursor: pointer;
  }
  /* The link's own form, set apart from the registration above it. */
  form + form {
    margin-top: 1.5em;
    padding-top: 1em;
    border-top: 1px solid var(--_b);
  }
`;
