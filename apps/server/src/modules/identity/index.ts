/**
 * The identity module's entry (issue 12): who is calling and how they prove it:
 * sessions and sign-in (auth), API keys (keys), device tokens (tokens) and
 * passwords (password), second factors (second-factor). One module, so the four parts may use each other;
 * other modules import it from here only.
 */
export * from './auth';
export * from './keys';
export * from './tokens';
export * from './password';
export * from './second-factor';
