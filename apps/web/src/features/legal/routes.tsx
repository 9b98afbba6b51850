/** Pages of the legal feature, loaded lazily by the router. */
export { PrivacyPolicyPage, TermsOfUsePage, TouAgreementPage } from './legal-pages';
