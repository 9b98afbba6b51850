/** Terms of use and privacy policy. The pages load lazily through `./routes`. */
export { termsOfUseQueryOptions, useTermsOfUse } from './api/get-terms-of-use';
export { privacyPolicyQueryOptions, usePrivacyPolicy } from './api/get-privacy-policy';
