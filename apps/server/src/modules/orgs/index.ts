/**
 * The orgs module's entry: other modules import it from here only (issue 12).
 */
export { createOrganization, ensureBuiltInRoles, setMembership } from './repository';
