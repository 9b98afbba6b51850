/**
 * The users module's entry: the only way in from outside the module (issue 12).
 */
export { scrubDeadInvitationLinks } from './invitations';
